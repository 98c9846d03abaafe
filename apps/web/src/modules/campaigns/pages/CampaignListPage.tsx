import { Anchor, Button, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CAMPAIGN_SORTS, CAMPAIGN_STATUSES, type TCampaign, type TCampaignStatus } from '@yado/contracts/campaigns';
import {
  IconCalendarTime,
  IconChartBar,
  IconCopy,
  IconFilePencil,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconSend,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { FilterSelect, ListPager, ListToolbar } from '../../ui/components/ListControls';
import { PageHeader } from '../../ui/components/PageHeader';
import { RowActionMenu } from '../../ui/components/RowActionMenu';
import { listMemory, useListFilters } from '../../ui/hooks/useListFilters';
import { campaignListQuery, type TCampaignFilters, type TCampaignSort } from '../api/campaignsCalls';
import { actionsFor, type TCampaignAction } from '../campaignActions';
import { CampaignStatusBadge } from '../components/CampaignStatusBadge';
import { codeText, formatCount, formatRate } from '../components/numbers';
import { useCampaignActions } from '../hooks/useCampaignActions';

const PAGE_SIZE = 20;
// The list as last left, so coming back from a campaign finds the same search, filter and page.
const remembered = listMemory<TCampaignFilters>({ search: '', status: '', sort: '-created_at' });

const ICONS: Record<TCampaignAction, ReactNode> = {
  statistics: <IconChartBar size={16} />,
  edit: <IconPencil size={16} />,
  edit_schedule: <IconCalendarTime size={16} />,
  send_now: <IconSend size={16} />,
  save_as_draft: <IconFilePencil size={16} />,
  cancel: <IconX size={16} />,
  pause: <IconPlayerPause size={16} />,
  resume: <IconPlayerPlay size={16} />,
  duplicate: <IconCopy size={16} />,
  delete: <IconTrash size={16} />,
};

/** When a campaign goes (or went) out, as its status says. */
function sendTime(campaign: TCampaign): string | null {
  return campaign.startedAt ?? campaign.sendAt;
}

/** Spec section 2, "Campaigns": the list with its statistics and the actions each state allows. */
export function CampaignListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const can = useProfile().entitlements;
  const { filters, page, setPage, change } = useListFilters(remembered);
  const campaigns = useQuery(campaignListQuery(filters, page, PAGE_SIZE));
  const { run, dialog } = useCampaignActions();
  const data = campaigns.data;
  const items = data?.items ?? [];

  return (
    <>
      <PageHeader
        title={t('nav.campaign')}
        description={t('campaign.description')}
        actions={
          can['campaign.create'] && (
            <Button component={Link} to="/campaign/new" leftSection={<IconPlus size={16} />}>
              {t('campaign.actions.create')}
            </Button>
          )
        }
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <ListToolbar
            search={filters.search}
            onSearch={(search) => change({ search })}
            searchPlaceholder={t('campaign.list.search')}
          >
            <FilterSelect<TCampaignStatus | ''>
              label={t('campaign.list.status')}
              name="status"
              value={filters.status}
              allLabel={t('campaign.list.all_statuses')}
              options={CAMPAIGN_STATUSES.map((status) => ({
                value: status,
                label: t(`campaign.status.${status}`),
                count: data ? (data.headline.byStatus[status] ?? 0) : undefined,
              }))}
              onChange={(status) => change({ status })}
            />
            <FilterSelect<TCampaignSort>
              label={t('campaign.list.sort')}
              name="sort"
              value={filters.sort}
              options={CAMPAIGN_SORTS.filter((sort) => !sort.endsWith('status')).map((sort) => ({
                value: sort,
                label: t(`campaign.list.sorts.${sort.replace('-', 'desc_')}`),
              }))}
              onChange={(sort) => change({ sort })}
            />
          </ListToolbar>
          {campaigns.isError ? (
            <Text c="red" role="alert">
              {errorText(campaigns.error, t)}
            </Text>
          ) : data && items.length === 0 ? (
            <EmptyState readOnly={!can['campaign.create']} />
          ) : (
            <Table.ScrollContainer minWidth={900}>
              <Table highlightOnHover data-testid="campaign-table">
                <Table.Thead>
                  <Table.Tr>
                    {(['name', 'status', 'recipients', 'send_time', 'statistics'] as const).map((key) => (
                      <Table.Th key={key}>{t(`campaign.list.columns.${key}`)}</Table.Th>
                    ))}
                    <Table.Th>
                      <VisuallyHidden>{t('campaign.list.columns.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((campaign) => {
                    const actions = actionsFor(campaign.status, campaign.editable, can, Boolean(campaign.paused));
                    const main: TCampaignAction | undefined = actions.includes('statistics')
                      ? 'statistics'
                      : actions.includes('edit')
                        ? 'edit'
                        : undefined;
                    const stats = campaign.statistics;
                    const when = sendTime(campaign);
                    return (
                      <Table.Tr
                        key={campaign.id}
                        data-testid="campaign-row"
                        data-id={campaign.id}
                        data-name={campaign.name}
                        data-status={campaign.status}
                      >
                        <Table.Td>
                          {main ? (
                            <Anchor
                              component={Link}
                              to={main === 'statistics' ? `/campaign/${campaign.id}` : `/campaign/${campaign.id}/edit`}
                              fw={600}
                            >
                              {campaign.name}
                            </Anchor>
                          ) : (
                            <Text fw={600} size="sm">
                              {campaign.name}
                            </Text>
                          )}
                          {campaign.subject && (
                            <Text size="xs" c="dimmed" lineClamp={1} maw={360}>
                              {campaign.subject}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <CampaignStatusBadge status={campaign.status} />
                          {campaign.paused && (
                            <Text size="xs" c="yellow.8" maw={260} data-testid="campaign-paused">
                              {t('campaign.statistics.paused', {
                                name: campaign.paused.by?.name ?? t('campaign.statistics.paused_someone'),
                                time: formatDate(campaign.paused.at, language, { withTime: true }),
                              })}
                            </Text>
                          )}
                          {campaign.problem && (
                            <Text size="xs" c="red" maw={260} data-testid="campaign-problem">
                              {codeText(campaign.problem, t)}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td data-testid="campaign-recipients">
                          {stats.audience === null
                            ? t('campaign.list.no_statistics')
                            : formatCount(stats.audience, language)}
                        </Table.Td>
                        <Table.Td>
                          {when ? formatDate(when, language, { withTime: true }) : t('campaign.list.not_scheduled')}
                        </Table.Td>
                        <Table.Td data-testid="campaign-headline">
                          {stats.audience === null ? (
                            t('campaign.list.no_statistics')
                          ) : (
                            <Stack gap={0}>
                              <Text size="sm">
                                {t('campaign.statistics.sent')} {formatCount(stats.sent, language)}
                                {stats.failed > 0 &&
                                  ` · ${t('campaign.statistics.failed')} ${formatCount(stats.failed, language)}`}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {t('campaign.list.headline', {
                                  open: formatRate(stats.openRate, language),
                                  click: formatRate(stats.clickRate, language),
                                })}
                              </Text>
                            </Stack>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <RowActionMenu
                            actions={actions}
                            icons={ICONS}
                            danger={['delete', 'cancel']}
                            label={t('campaign.list.menu', { name: campaign.name })}
                            textOf={(action) => t(`campaign.actions.${action}`)}
                            onRun={(action) => run(action, campaign)}
                            testId="campaign"
                          />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <ListPager
            texts="campaign.list"
            testId="campaign"
            page={page}
            pageSize={PAGE_SIZE}
            query={campaigns}
            onPage={setPage}
          />
        </Stack>
      </Paper>
      {dialog}
    </>
  );
}
