import { Group, Stack, Tabs, Text, Title } from '@mantine/core';
import type { TCustomerImport } from '@yado/contracts/customer-imports';
import { useTranslation } from 'react-i18next';
import { DownloadFailuresButton } from './DownloadFailuresButton';
import { ImportRowsTable } from './ImportRowsTable';

/**
 * A completed import's skipped rows: those with errors (with their reasons, and as a CSV to fix
 * and import again) and those repeating an earlier row of the file. The import keeps them for the
 * failures download (prune-imports.ts); its written rows are gone, so "identical" lists the repeats.
 */
export function SkippedRows({
  item,
  failed,
  duplicates,
}: {
  item: TCustomerImport;
  failed: number;
  duplicates: number;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="import-skipped-rows">
      <Title order={3} size="h5">
        {t('customer_import.result.skipped_title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('customer_import.result.skipped_note')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('customer_import.review.row_hint')}
      </Text>
      <Tabs defaultValue={failed > 0 ? 'failed' : 'duplicates'} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="failed">
            {t('customer_import.review.failed_rows')} ({failed.toLocaleString()})
          </Tabs.Tab>
          <Tabs.Tab value="duplicates">
            {t('customer_import.review.duplicates')} ({duplicates.toLocaleString()})
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="failed" pt="sm">
          {failed > 0 && (
            <Group justify="flex-end" mb="xs">
              <DownloadFailuresButton importId={item.id} />
            </Group>
          )}
          <ImportRowsTable importId={item.id} outcome="failed" />
        </Tabs.Panel>
        <Tabs.Panel value="duplicates" pt="sm">
          <ImportRowsTable importId={item.id} outcome="identical" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
