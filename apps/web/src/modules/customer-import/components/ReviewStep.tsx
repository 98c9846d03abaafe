import { Alert, Button, Group, Progress, Stack, Tabs, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { TCustomerImport } from '@yado/contracts/customer-imports';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushSnackbar } from '../../ui/components/snackbarStore';
import { downloadFailures } from '../api/importCalls';
import { ImportCounts } from './ImportCounts';
import { ImportRowsTable } from './ImportRowsTable';

/** Step two: the review job's progress, then its counts and the failed and identical rows. */
export function ReviewStep({ item }: { item: TCustomerImport }) {
  const { t, i18n } = useTranslation();
  const [downloading, setDownloading] = useState(false);
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
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFailures(item.id, i18n.language === 'en' ? 'en' : 'ja');
    } catch {
      pushSnackbar({ status: 'failed', text: t('errors.general'), durationMs: 5000 });
    } finally {
      setDownloading(false);
    }
  };
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
              <Button
                variant="light"
                size="xs"
                leftSection={<IconDownload size={14} />}
                loading={downloading}
                onClick={() => void download()}
              >
                {t('customer_import.review.download_failures')}
              </Button>
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
