import { Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { formatDate } from '../../../lib/dates/formatDate';
import { browserTimeZone } from '../../campaigns/components/CampaignHoldNote';
import { auditLogQuery } from '../api/auditCalls';
import { describeActing, describeAction, describeChanges } from '../auditText';

/** The audit log of one host and everything below it (or of everything), with "load more". */
export function AuditLogTable({ hostId }: { hostId: string | null }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'ja';
  const log = useInfiniteQuery(auditLogQuery(hostId));

  if (log.isPending) return <Loader size="sm" />;
  if (log.isError) {
    return (
      <Text c="red" role="alert">
        {errorText(log.error, t)}
      </Text>
    );
  }
  const entries = log.data.pages.flat();
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="audit-empty">
        {t('audit.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed" data-testid="audit-time-zone">
        {t('audit.time_zone_note', { timeZone: browserTimeZone() })}
      </Text>
      <Table.ScrollContainer minWidth={900}>
        <Table verticalSpacing="sm" data-testid="audit-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={190}>{t('audit.columns.at')}</Table.Th>
              {/* Short headers over columns often of a dash (a guest's own unsubscribe): never broken inside a word. */}
              <Table.Th style={{ whiteSpace: 'nowrap' }}>{t('audit.columns.actor')}</Table.Th>
              <Table.Th style={{ whiteSpace: 'nowrap' }}>{t('audit.columns.acting')}</Table.Th>
              <Table.Th>{t('audit.columns.action')}</Table.Th>
              <Table.Th>{t('audit.columns.changes')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id} data-testid="audit-entry" data-action={entry.action}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(entry.at, language, { withTime: true })}
                </Table.Td>
                <Table.Td>{entry.actorEmail ?? '-'}</Table.Td>
                <Table.Td>{describeActing(entry, t)}</Table.Td>
                <Table.Td>{describeAction(entry, t)}</Table.Td>
                <Table.Td>
                  {describeChanges(entry, t).map((line, index) => (
                    <Text key={index} size="sm">
                      {line}
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="center">
        {log.hasNextPage ? (
          <Button variant="default" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            {t('audit.load_more')}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {t('audit.end')}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
