import { Alert, Button, Group, Progress, Radio, SimpleGrid, Paper, Stack, Text, Title } from '@mantine/core';
import { EMAIL_RECEPTIONS, type TCustomerImport, type TEmailReception } from '@yado/contracts/customer-imports';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ImportSegmentChoice } from '../../segmentation/components/ImportSegmentChoice';
import { useProfile } from '../../shell/hooks/useProfile';
import { SkippedRows } from './SkippedRows';

/**
 * Step three: how the new customers agreed to receive email and, for a role that may change
 * segments, a static segment the imported customers join; then the import with its progress and
 * result. Read only (another host's import), it shows the progress, the result or the failure alone.
 */
export function ReceptionStep({
  item,
  readOnly = false,
  running,
  onRun,
  onAnother,
}: {
  item: TCustomerImport;
  readOnly?: boolean;
  running: boolean;
  onRun: (reception: TEmailReception, segmentId?: string) => void;
  onAnother: () => void;
}) {
  const { t } = useTranslation();
  const [reception, setReception] = useState<TEmailReception | null>(item.emailReception);
  const [segmentId, setSegmentId] = useState(item.segmentId ?? '');
  const joinsSegment = useProfile().entitlements['segmentation.update'];

  if (item.status === 'queued' || item.status === 'importing') {
    const { done, total } = item.progress;
    return (
      <Stack gap="xs" data-testid="import-running">
        <Text size="sm">
          {item.status === 'queued'
            ? t('customer_import.progress.queued')
            : t('customer_import.progress.importing', {
                done: done.toLocaleString(),
                total: (total ?? 0).toLocaleString(),
              })}
        </Text>
        <Progress value={total ? (100 * done) / total : 0} animated striped />
        {item.resumedAt && (
          <Text size="xs" c="dimmed" data-testid="import-resumed">
            {t('customer_import.progress.resumed')}
          </Text>
        )}
      </Stack>
    );
  }
  if (item.status === 'completed' && item.result) {
    const r = item.result;
    // Rows not written: those with errors, and repeats of an earlier row of the file.
    const failed = item.counts?.failed ?? 0;
    const duplicates = item.counts?.duplicates ?? 0;
    const skipped = failed + duplicates;
    return (
      <Stack gap="md" data-testid="import-result">
        <Alert color="teal" title={t('customer_import.result.completed')}>
          <Text size="sm" data-testid="import-result-summary">
            {t('customer_import.result.summary', {
              inserted: r.inserted.toLocaleString(),
              updated: r.updated.toLocaleString(),
              skipped: skipped.toLocaleString(),
            })}
          </Text>
          {item.resumedAt && (
            <Text size="sm" data-testid="import-resumed">
              {t('customer_import.result.resumed')}
            </Text>
          )}
        </Alert>
        {item.segmentId && item.segmentAdded !== null && item.segmentAdded !== undefined && (
          <Text size="sm" data-testid="import-result-segment">
            {t('segmentation.import.added', { count: item.segmentAdded })}
          </Text>
        )}
        <SimpleGrid cols={{ base: 2, sm: item.hotelName ? 5 : 4 }}>
          {(['inserted', 'updated', 'unchanged'] as const).map((key) => (
            <Paper key={key} withBorder radius="md" p="sm" data-testid={`import-result-${key}`}>
              <Text size="xs" c="dimmed">
                {t(`customer_import.result.${key}`)}
              </Text>
              <Text size="xl" fw={700}>
                {r[key].toLocaleString()}
              </Text>
            </Paper>
          ))}
          <Paper withBorder radius="md" p="sm" data-testid="import-result-skipped">
            <Text size="xs" c="dimmed">
              {t('customer_import.result.skipped')}
            </Text>
            <Text size="xl" fw={700} c={failed ? 'red' : undefined}>
              {skipped.toLocaleString()}
            </Text>
            <Text size="xs" c="dimmed">
              {t('customer_import.result.skipped_detail', {
                failed: failed.toLocaleString(),
                duplicates: duplicates.toLocaleString(),
              })}
            </Text>
          </Paper>
          {item.hotelName && (
            <Paper withBorder radius="md" p="sm">
              <Text size="xs" c="dimmed">
                {t('customer_import.result.allocated', { hotel: item.hotelName })}
              </Text>
              <Text size="xl" fw={700}>
                {r.allocated.toLocaleString()}
              </Text>
            </Paper>
          )}
        </SimpleGrid>
        {skipped > 0 && <SkippedRows item={item} failed={failed} duplicates={duplicates} />}
        <Group>
          <Button component={Link} to="/customer-list">
            {t('customer_import.result.view_customers')}
          </Button>
          <Button variant="default" onClick={onAnother}>
            {t('customer_import.result.another')}
          </Button>
        </Group>
      </Stack>
    );
  }
  const counts = item.counts;
  const changes = counts ? counts.new + counts.updated : 0;
  if (readOnly) {
    return item.status === 'failed' && item.error ? (
      <Alert color="red" title={t('customer_import.result.failed_title')} data-testid="import-failed">
        {t(`errors.${item.error.code}`, { defaultValue: item.error.message })}
      </Alert>
    ) : null;
  }
  return (
    <Stack gap="md">
      {item.status === 'failed' && item.error && (
        <Alert color="red" title={t('customer_import.result.failed_title')} data-testid="import-failed">
          {t(`errors.${item.error.code}`, { defaultValue: item.error.message })}
        </Alert>
      )}
      <Title order={3} size="h5">
        {t('customer_import.reception.title')}
      </Title>
      <Radio.Group value={reception} onChange={(v) => setReception(v as TEmailReception)}>
        <Stack gap="xs">
          {EMAIL_RECEPTIONS.map((option) => (
            <Radio
              key={option}
              value={option}
              label={t(`customer_import.reception.options.${option}`)}
              data-testid={`reception-${option}`}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Text size="sm" c="dimmed">
        {t('customer_import.reception.note')}
      </Text>
      {joinsSegment && <ImportSegmentChoice value={segmentId} onChange={setSegmentId} />}
      {changes === 0 && <Alert color="gray">{t('customer_import.reception.nothing_to_import')}</Alert>}
      <Group>
        <Button
          disabled={!reception}
          loading={running}
          onClick={() => reception && onRun(reception, segmentId || undefined)}
          data-testid="import-run"
        >
          {item.status === 'failed' ? t('customer_import.result.try_again') : t('customer_import.reception.run')}
        </Button>
      </Group>
    </Stack>
  );
}
