import { Alert, Badge, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import {
  rateLevel,
  type TDomainDeliverability,
  type TDomainWindow,
  type TRateLevel,
} from '@yado/contracts/domain-deliverability';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import type { TLanguage } from '../../../lib/session/storage';
import { domainDeliverabilityQuery } from '../api/sendingCalls';
import { STATE_COLOR } from './domainState';

const LEVEL_COLOR: Record<TRateLevel, string> = { ok: 'green', warning: 'yellow', danger: 'red' };

const locale = (language: TLanguage) => (language === 'ja' ? 'ja-JP' : 'en-US');

/** Two decimals: the providers' limits are 0.1% and 0.3%. "-" when nothing was sent yet. */
const percent = (value: number | null, language: TLanguage) =>
  value === null
    ? '-'
    : value.toLocaleString(locale(language), { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });

type TRow = {
  key: 'handed' | 'delivered' | 'hard_bounces' | 'soft_bounces' | 'complaints' | 'policy_blocks' | 'auto_replies';
  count: (w: TDomainWindow) => number;
  rate?: (w: TDomainWindow) => number | null;
  limit?: 'hardBounce' | 'complaint';
};

const ROWS: TRow[] = [
  { key: 'handed', count: (w) => w.handed },
  { key: 'delivered', count: (w) => w.delivered },
  { key: 'hard_bounces', count: (w) => w.hardBounces, rate: (w) => w.hardBounceRate, limit: 'hardBounce' },
  { key: 'soft_bounces', count: (w) => w.softBounces },
  { key: 'complaints', count: (w) => w.complaints, rate: (w) => w.complaintRate, limit: 'complaint' },
  { key: 'policy_blocks', count: (w) => w.policyBlocks, rate: (w) => w.policyBlockRate },
  { key: 'auto_replies', count: (w) => w.autoReplies },
];

/**
 * Deliverability per sending domain (issue 25): the last 7 and 30 days of each of the brand's
 * domains, the bounce and complaint rates against the providers' limits (the contract's
 * `rateLevel`), and the latest policy blocks with the provider's diagnostic. Brand level only.
 */
export function DomainDeliverability() {
  const { t } = useTranslation();
  const query = useQuery(domainDeliverabilityQuery);
  if (query.isPending) return <Loader size="sm" />;
  if (query.isError) {
    return (
      <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="deliverability-unavailable">
        {errorText(query.error, t)}
      </Alert>
    );
  }
  const { domains } = query.data;
  return (
    <Stack gap="sm" data-testid="domain-deliverability">
      <div>
        <Title order={3} size="h5">
          {t('sending.deliverability.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('sending.deliverability.description')}
        </Text>
      </div>
      {domains.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('sending.deliverability.none')}
        </Text>
      )}
      {domains.map((d) => (
        <DomainFigures key={d.domainId} domain={d} />
      ))}
      {domains.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('sending.deliverability.limits')}
        </Text>
      )}
    </Stack>
  );
}

function DomainFigures({ domain }: { domain: TDomainDeliverability }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <Paper withBorder radius="md" p="md" data-testid={`deliverability-${domain.domain}`}>
      <Group gap="xs" mb="xs">
        <Text fw={600}>{domain.displayName}</Text>
        <Badge color={STATE_COLOR[domain.state]} variant="light">
          {t(`sending.state.${domain.state}`)}
        </Badge>
      </Group>
      <Table.ScrollContainer minWidth={480}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('sending.deliverability.metric')}</Table.Th>
              {domain.windows.map((w) => (
                <Table.Th key={w.days} style={{ textAlign: 'right' }}>
                  {t('sending.deliverability.window', { days: w.days })}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ROWS.map((row) => (
              <Table.Tr key={row.key} data-testid={`deliverability-row-${row.key}`}>
                <Table.Td>{t(`sending.deliverability.${row.key}`)}</Table.Td>
                {domain.windows.map((w) => (
                  <Table.Td key={w.days} style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    <Figure row={row} window={w} language={language} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" fw={600} mt="md">
        {t('sending.deliverability.recent_blocks')}
      </Text>
      <Text size="xs" c="dimmed" mb={4}>
        {t('sending.deliverability.policy_blocks_help')}
      </Text>
      {domain.recentPolicyBlocks.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('sending.deliverability.no_blocks')}
        </Text>
      ) : (
        <Table withTableBorder data-testid="deliverability-blocks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('sending.deliverability.block_at')}</Table.Th>
              <Table.Th>{t('sending.deliverability.block_status')}</Table.Th>
              <Table.Th>{t('sending.deliverability.block_diagnostic')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {domain.recentPolicyBlocks.map((b, i) => (
              <Table.Tr key={`${b.at}-${i}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(b.at, language, { withTime: true })}</Table.Td>
                <Table.Td>{b.status ?? '-'}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-word' }}>{b.diagnostic ?? '-'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function Figure({ row, window, language }: { row: TRow; window: TDomainWindow; language: TLanguage }) {
  const { t } = useTranslation();
  const count = row.count(window).toLocaleString(locale(language));
  if (!row.rate) return <>{count}</>;
  const rate = row.rate(window);
  const level = row.limit ? rateLevel(row.limit, rate) : null;
  return (
    <Group gap={6} justify="flex-end" wrap="nowrap">
      <span>{count}</span>
      <Text span size="sm" c="dimmed">
        ({percent(rate, language)})
      </Text>
      {level && rate !== null && (
        <Badge size="sm" variant="light" color={LEVEL_COLOR[level]} data-testid={`level-${row.key}-${window.days}`}>
          {t(`sending.deliverability.level.${level}`)}
        </Badge>
      )}
    </Group>
  );
}
