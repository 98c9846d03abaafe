import { Center, Loader, Modal, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { EmptyState } from '../../ui/components/EmptyState';
import { CampaignStatusBadge } from '../../campaigns/components/CampaignStatusBadge';
import { templateReportQuery } from '../api/templatesCalls';

const rate = (part: number | null, whole: number | null) =>
  part !== null && whole !== null && whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '-';

/**
 * "View report": the campaigns that used the template and their statistics, or "No Data Found";
 * each campaign's status as the campaign list says it, its time in the acting host's zone, named.
 */
export function TemplateReportDialog({
  template,
  onClose,
}: {
  template: { id: string; name: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const report = useQuery(templateReportQuery(template?.id ?? '', template !== null));
  const rows = report.data?.campaigns ?? [];
  const timeZone = report.data?.timeZone;
  // Until the report arrives, a loader: not an empty table naming no time zone.
  return (
    <Modal
      opened={template !== null}
      onClose={onClose}
      size="xl"
      centered
      title={t('templates.report.title', { name: template?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {report.isError ? (
        <Text c="red" role="alert">
          {errorText(report.error, t)}
        </Text>
      ) : !report.data ? (
        <Center py="xl" data-testid="template-report-loading">
          <Loader size="sm" />
        </Center>
      ) : rows.length === 0 ? (
        <EmptyState readOnly description={t('templates.report.empty_hint')} />
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table data-testid="template-report">
            <Table.Thead>
              <Table.Tr>
                {['campaign', 'status', 'sent_at', 'recipients', 'delivered', 'open_rate', 'click_rate'].map((key) => (
                  <Table.Th key={key}>{t(`templates.report.columns.${key}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.campaignId}>
                  <Table.Td>{row.campaignName}</Table.Td>
                  <Table.Td>
                    <CampaignStatusBadge status={row.status} paused={row.paused} />
                  </Table.Td>
                  <Table.Td>
                    {row.sentAt ? formatDate(row.sentAt, language, { withTime: true, timeZone }) : '-'}
                  </Table.Td>
                  <Table.Td>{row.recipients ?? '-'}</Table.Td>
                  <Table.Td>{row.delivered ?? '-'}</Table.Td>
                  <Table.Td>{rate(row.opened, row.delivered)}</Table.Td>
                  <Table.Td>{rate(row.clicked, row.delivered)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed" mt="xs" data-testid="template-report-time-zone">
            {t('templates.report.time_zone_note', { timeZone })}
          </Text>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
