import { Alert, Group, Progress, Stack, Tabs, Text } from '@mantine/core';
import type { TCustomerImport } from '@yado/contracts/customer-imports';
import { useTranslation } from 'react-i18next';
import { DownloadFailuresButton } from './DownloadFailuresButton';
import { ImportCounts } from './ImportCounts';
import { ImportRowsTable } from './ImportRowsTable';

/** Step two: the review job's progress, then its counts and the failed and identical rows. */
export function ReviewStep({ item }: { item: TCustomerImport }) {
  const { t } = useTranslation();
  if (item.status === 'reviewing') {
    return (
      <Stack gap="xs" data-testid="import-reviewing">
        <Text size="sm">{t('customer_import.review.reading', { done: item.progress.done.toLocaleString() })}</Text>
        <Progress value={100} animated striped />
        {item.resumedAt && (
          <Text size="xs" c="dimmed" data-testid="import-resumed">
            {t('customer_import.review.resumed')}
          </Text>
        )}
      </Stack>
    );
  }
  if (!item.counts) return null;
  return (
    <Stack gap="sm">
      <ImportCounts counts={item.counts} />
      {item.counts.failed > 0 && <Alert color="yellow">{t('customer_import.review.failed_not_imported')}</Alert>}
      <Text size="xs" c="dimmed">
        {t('customer_import.review.row_hint')}
      </Text>
      <Tabs defaultValue={item.counts.failed > 0 ? 'failed' : 'identical'} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="failed">
            {t('customer_import.review.failed_rows')} ({item.counts.failed.toLocaleString()})
          </Tabs.Tab>
          <Tabs.Tab value="identical">
            {t('customer_import.review.identical_rows')} (
            {(item.counts.unchanged + item.counts.duplicates).toLocaleString()})
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="failed" pt="sm">
          {item.counts.failed > 0 && (
            <Group justify="flex-end" mb="xs">
              <DownloadFailuresButton importId={item.id} />
            </Group>
          )}
          <ImportRowsTable importId={item.id} outcome="failed" />
        </Tabs.Panel>
        <Tabs.Panel value="identical" pt="sm">
          <ImportRowsTable importId={item.id} outcome="identical" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
