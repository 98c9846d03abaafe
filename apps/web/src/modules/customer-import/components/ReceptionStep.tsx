import { Alert, Button, Group, Progress, Radio, SimpleGrid, Paper, Stack, Text, Title } from '@mantine/core';
import { EMAIL_RECEPTIONS, type TCustomerImport, type TEmailReception } from '@yado/contracts/customer-imports';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ImportSegmentChoice } from '../../segmentation/components/ImportSegmentChoice';
import { useProfile } from '../../shell/hooks/useProfile';

/**
 * Step three: how the new customers agreed to receive email and, for a role that may change
 * segments, a static segment the imported customers join; then the import with its progress and
 * result.
 */
export function ReceptionStep({
  item,
  running,
  onRun,
  onAnother,
}: {
  item: TCustomerImport;
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
    return (
      <Stack gap="md" data-testid="import-result">
        <Alert color="teal" title={t('customer_import.result.completed')}>
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
        <SimpleGrid cols={{ base: 2, sm: item.hotelName ? 4 : 3 }}>
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
