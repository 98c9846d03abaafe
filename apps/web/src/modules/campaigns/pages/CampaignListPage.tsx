import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  CAMPAIGN_LIST_STATUSES,
  CAMPAIGN_SORTS,
  type TCampaign,
  type TCampaignListStatus,
} from '@yado/contracts/campaigns';
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
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { pausedText } from '../pausedText';
import { formatInPageZone } from '../../../lib/dates/formatDate';
import { useProfile } from '../../shell/hooks/useProfile';
import { BrandDataAction, useAtPlatform } from '../../ui/components/BrandDataAction';
import { FilterSelect } from '../../ui/components/ListControls';
import { ListPage, type TListColumn } from '../../ui/components/ListPage';
import { listMemory, useListFilters } from '../../ui/hooks/useListFilters';
import { campaignListQuery, type TCampaignFilters, type TCampaignSort } from '../api/campaignsCalls';
import { actionsFor, type TCampaignAction } from '../campaignActions';
import { browserTimeZone, CampaignHoldNote } from '../components/CampaignHoldNote';
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

const FIGURE_SEPARATOR = ' · ';

/**
 * Figures such as "送信数 1,751 · 失敗 4": each label with its value on one line ("クリック率" is
 * never cut after "クリック", a count never parted from its label); a line breaks only between them.
 */
function Figures({ parts }: { parts: string[] }) {
  return parts.map((part, i) => (
    <Fragment key={part}>
      {i > 0 && FIGURE_SEPARATOR}
      <span style={{ whiteSpace: 'nowrap' }}>{part}</span>
    </Fragment>
  ));
}

/** What the campaign's name opens: its statistics once it went out, else its editor. */
function mainAction(actions: TCampaignAction[]): 'statistics' | 'edit' | undefined {
  if (actions.includes('statistics')) return 'statistics';
  if (actions.includes('edit')) return 'edit';
  return undefined;
}

/** When a campaign goes (or went) out, as its status says: a draft is not scheduled, whatever time it plans. */
function sendTime(campaign: TCampaign): string | null {
  if (campaign.status === 'draft') return null;
  return campaign.startedAt ?? campaign.sendAt;
}

/** Spec section 2, "Campaigns": the list with its statistics and the actions each state allows. */
export function CampaignListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const profileCan = useProfile().entitlements;
  // At the platform a duplicate is refused as a create is (the platform holds no brand's data).
  const atPlatform = useAtPlatform();
  const can = atPlatform ? { ...profileCan, 'campaign.create': false } : profileCan;
  const list = useListFilters(remembered);
  const { filters, change } = list;
  const campaigns = useQuery(campaignListQuery(filters, list.page, PAGE_SIZE));
  const { run, dialog } = useCampaignActions();
  const data = campaigns.data;
  // One time zone for the page, named under the list: the campaigns' own (their owning host's, as
  // the statistics page shows them); a row of a host in another zone names its zone by its time.
  const pageTimeZone = data?.items[0]?.timeZone ?? browserTimeZone();
  const zoned = (at: string, timeZone: string) => formatInPageZone(at, language, timeZone, pageTimeZone);

  const createButton = (
    <Button component={Link} to="/campaign/new" leftSection={<IconPlus size={16} />}>
      {t('campaign.actions.create')}
    </Button>
  );

  const columns: TListColumn<TCampaign>[] = [
    {
      key: 'name',
      header: t('campaign.list.columns.name'),
      cell: (campaign) => {
        const main = mainAction(
          actionsFor(
            campaign.status,
            campaign.editable,
            can,
            campaign.scope,
            Boolean(campaign.paused),
            Boolean(campaign.startedAt),
          ),
        );
        return (
          <>
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
          </>
        );
      },
    },
    {
      key: 'status',
      header: t('campaign.list.columns.status'),
      cell: (campaign) => (
        <>
          <CampaignStatusBadge status={campaign.status} hold={campaign.hold} paused={Boolean(campaign.paused)} />
          {campaign.hold && <CampaignHoldNote hold={campaign.hold} pageTimeZone={pageTimeZone} />}
          {campaign.paused && (
            <Text size="xs" c="yellow.8" maw={260} data-testid="campaign-paused">
              {pausedText(campaign.paused, t, language, campaign.timeZone)}
            </Text>
          )}
          {campaign.problem && (
            <Text size="xs" c="red" maw={260} data-testid="campaign-problem">
              {codeText(campaign.problem, t)}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'recipients',
      header: t('campaign.list.columns.recipients'),
      testId: 'campaign-recipients',
      nowrap: true,
      cell: (campaign) =>
        campaign.statistics.audience === null
          ? t('campaign.list.no_statistics')
          : formatCount(campaign.statistics.audience, language),
    },
    {
      key: 'send_time',
      header: t('campaign.list.columns.send_time'),
      nowrap: true,
      testId: 'campaign-send-time',
      cell: (campaign) => {
        const when = sendTime(campaign);
        return when ? zoned(when, campaign.timeZone) : t('campaign.list.not_scheduled');
      },
    },
    {
      key: 'statistics',
      header: t('campaign.list.columns.statistics'),
      testId: 'campaign-headline',
      cell: ({ statistics: stats }) =>
        stats.audience === null ? (
          t('campaign.list.no_statistics')
        ) : (
          <Stack gap={0}>
            <Text size="sm">
              <Figures
                parts={[
                  `${t('campaign.statistics.sent')} ${formatCount(stats.sent, language)}`,
                  ...(stats.failed > 0
                    ? [`${t('campaign.statistics.failed')} ${formatCount(stats.failed, language)}`]
                    : []),
                  // The recipients never mailed (unsubscribed meanwhile, suppressed...): the statistics say why.
                  ...(stats.skipped > 0
                    ? [`${t('campaign.statistics.skipped')} ${formatCount(stats.skipped, language)}`]
                    : []),
                ]}
              />
            </Text>
            <Text size="xs" c="dimmed">
              <Figures
                parts={t('campaign.list.headline', {
                  open: formatRate(stats.openRate, language),
                  click: formatRate(stats.clickRate, language),
                }).split(FIGURE_SEPARATOR)}
              />
            </Text>
          </Stack>
        ),
    },
  ];

  return (
    <ListPage<TCampaign, TCampaignAction, TCampaignFilters>
      title={t('nav.campaign')}
      description={t('campaign.description')}
      headerActions={profileCan['campaign.create'] && <BrandDataAction>{createButton}</BrandDataAction>}
      list={list}
      searchPlaceholder={t('campaign.list.search')}
      filters={
        <>
          <FilterSelect<TCampaignListStatus | ''>
            label={t('campaign.list.status')}
            name="status"
            value={filters.status}
            allLabel={t('campaign.list.all_statuses')}
            // The statuses the badges show, with the texts they show: the server filters by the same rule.
            options={CAMPAIGN_LIST_STATUSES.map((status) => ({
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
        </>
      }
      query={campaigns}
      columns={columns}
      rowKey={(campaign) => campaign.id}
      rowProps={(campaign) => ({
        'data-testid': 'campaign-row',
        'data-id': campaign.id,
        'data-name': campaign.name,
        'data-status': campaign.status,
      })}
      rowActions={{
        of: (campaign) =>
          actionsFor(
            campaign.status,
            campaign.editable,
            can,
            campaign.scope,
            Boolean(campaign.paused),
            Boolean(campaign.startedAt),
          ),
        icons: ICONS,
        danger: ['delete', 'cancel'],
        label: (campaign) => t('campaign.list.menu', { name: campaign.name }),
        textOf: (action) => t(`campaign.actions.${action}`),
        onRun: run,
        header: t('campaign.list.columns.actions'),
      }}
      empty={{
        title: t('campaign.list.empty_title'),
        next: t('campaign.list.empty_next'),
        action: profileCan['campaign.create'] && <BrandDataAction repeated>{createButton}</BrandDataAction>,
        readOnly: !profileCan['campaign.create'],
      }}
      texts="campaign.list"
      testId="campaign"
      pageSize={PAGE_SIZE}
      minWidth={900}
    >
      {data && data.items.length > 0 && (
        <Text size="xs" c="dimmed" mt="xs" data-testid="campaign-time-zone">
          {t('campaign.statistics.time_zone_note', { timeZone: pageTimeZone })}
        </Text>
      )}
      {dialog}
    </ListPage>
  );
}
