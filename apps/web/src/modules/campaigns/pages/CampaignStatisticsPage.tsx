import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { TCampaign } from '@yado/contracts/campaigns';
import {
  DELIVERY_STATUSES,
  type TCampaignReport,
  type TRecipient,
  type TRecipientFeedbackKind,
} from '@yado/contracts/tracking';
import { IconChevronLeft, IconInfoCircle } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { pausedText, warningText } from '../pausedText';
import { formatDate } from '../../../lib/dates/formatDate';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import type { TLanguage } from '../../../lib/session/storage';
import { useProfile } from '../../shell/hooks/useProfile';
import { ExperimentReport } from '../../experiments/components/ExperimentReport';
import { EmptyState } from '../../ui/components/EmptyState';
import { campaignQuery, isMoving } from '../api/campaignsCalls';
import { hotelsQuery, linksQuery, recipientsQuery, reportQuery, seriesQuery } from '../api/statisticsCalls';
import { actionsFor } from '../campaignActions';
import { CampaignHoldNote } from '../components/CampaignHoldNote';
import { CampaignStatusBadge } from '../components/CampaignStatusBadge';
import { codeText, formatCount, formatMoney, formatRate, hasCodeText } from '../components/numbers';
import { useCampaignActions } from '../hooks/useCampaignActions';
import { useBrandDataEntitlements } from '../../ui/components/BrandDataAction';
import { chartHasEvents } from '../statistics/chartSeries';

// recharts is large: it downloads after the figures, only on this page.
const CampaignChart = lazy(() => import('../statistics/CampaignChart').then((m) => ({ default: m.CampaignChart })));

const SENT_STATES = new Set(['pending', 'sent', 'failed']);
type TRecipientStatus = (typeof DELIVERY_STATUSES)[number];
/** The recipients the figures count apart (hard and soft bounces, complaints) can be listed alone. */
const LISTED_FEEDBACK: TRecipientFeedbackKind[] = ['hard_bounce', 'soft_bounce', 'complaint'];

/** /campaign/:id: what happened to a campaign (spec section 3, Campaign statistics). */
export function CampaignStatisticsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const can = useProfile().entitlements;
  const actionable = useBrandDataEntitlements();
  const campaign = useQuery({
    ...campaignQuery(id),
    refetchInterval: (query) => (query.state.data && isMoving(query.state.data) ? 3_000 : false),
  });
  const { run, dialog } = useCampaignActions(() => void navigate('/campaign'));

  if (campaign.isError) {
    // A campaign out of reach is "not found": said once, with what it means here.
    const missing = isApiError(campaign.error) && campaign.error.status === 404;
    return (
      <Paper withBorder radius="md" p="xl">
        <EmptyState
          readOnly
          title={t('errors.not_found')}
          description={missing ? t('campaign.statistics.not_found') : errorText(campaign.error, t)}
        />
      </Paper>
    );
  }
  if (!campaign.data) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  const data = campaign.data;
  const actions = actionsFor(
    data.status,
    data.editable,
    actionable,
    data.scope,
    Boolean(data.paused),
    Boolean(data.startedAt),
  ).filter((a) => a !== 'statistics');
  const reportOnly = !can['campaign.update'] && !can['campaign.create'];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Anchor component={Link} to="/campaign" size="sm">
            <Group gap={4}>
              <IconChevronLeft size={16} />
              {t('campaign.actions.back_to_list')}
            </Group>
          </Anchor>
          <Group gap="sm">
            <Title order={1} size="h2" data-testid="campaign-title">
              {t('campaign.statistics.title', { name: data.name })}
            </Title>
            <CampaignStatusBadge status={data.status} hold={data.hold} paused={Boolean(data.paused)} />
            {reportOnly && (
              <Badge variant="outline" color="gray" data-testid="campaign-report-only">
                {t('campaign.statistics.report_only')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {data.subject}
          </Text>
          {data.hold && <CampaignHoldNote hold={data.hold} pageTimeZone={data.timeZone} maw={640} />}
          {data.status === 'scheduled' && data.sendAt && <ScheduledNote campaign={data} sendAt={data.sendAt} />}
          {data.problem && (
            <Text size="sm" c="red" role="alert">
              {codeText(data.problem, t)}
            </Text>
          )}
          <Text size="xs" c="dimmed" data-testid="campaign-time-zone">
            {t('campaign.statistics.time_zone_note', { timeZone: data.timeZone })}
          </Text>
        </Stack>
        <Group gap="xs">
          {actions.map((action) => (
            <Button
              key={action}
              size="xs"
              variant={action === 'send_now' ? 'filled' : 'default'}
              color={action === 'delete' || action === 'cancel' ? 'red' : undefined}
              onClick={() => run(action, data)}
            >
              {t(`campaign.actions.${action}`)}
            </Button>
          ))}
        </Group>
      </Group>
      {data.scope === 'own_guests' && (
        <Alert color="blue" data-testid="campaign-own-guests">
          {t('campaign.statistics.own_guests', { host: data.hostName })}
        </Alert>
      )}
      {data.paused && (
        <Alert color="yellow" data-testid="campaign-paused">
          {pausedText(data.paused, t, currentLanguage(), data.timeZone)}
        </Alert>
      )}
      {SENT_STATES.has(data.status) || data.startedAt ? (
        <Statistics
          campaign={data}
          canPick={can['campaign.update'] === true && data.editable && data.scope === 'campaign'}
        />
      ) : (
        <Alert color="gray" data-testid="campaign-not-sent">
          {t(
            data.status === 'cancelled' ? 'campaign.statistics.not_sent_cancelled' : 'campaign.statistics.not_sent_yet',
          )}
        </Alert>
      )}
      {dialog}
    </Stack>
  );
}

/**
 * When a scheduled campaign is due, in the page's zone, and, when that falls in its host's quiet
 * hours, when it goes out (their end), as the editor's schedule step says it: the server's
 * `scheduledHold`, so every reader of the campaign sees it.
 */
function ScheduledNote({ campaign, sendAt }: { campaign: TCampaign; sendAt: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const held = campaign.scheduledHold;
  const date = (value: string) => formatDate(value, language, { withTime: true, timeZone: campaign.timeZone });
  return (
    <>
      <Text size="sm" data-testid="campaign-send-at" data-send-at={sendAt}>
        {t('campaign.statistics.scheduled_for', { date: date(sendAt) })}
      </Text>
      {held && (
        <Text size="xs" c="orange.8" maw={640} data-testid="campaign-send-at-held" data-until={held.until}>
          {t('campaign.statistics.scheduled_held', {
            start: held.quietHours.start,
            end: held.quietHours.end,
            timeZone: held.quietHours.timeZone,
            date: date(held.until),
          })}
        </Text>
      )}
    </>
  );
}

/**
 * What a started campaign that has handed no mail to the relay yet is doing, plainly: held by a
 * problem (a sending domain no longer verified...), waiting for the quiet hours (and until when),
 * sending, paused, cancelled, or over with nothing sent. A problem comes before the quiet hours:
 * their end is no promise while it stands.
 */
function nothingSentText(campaign: TCampaign, t: TFunction, language: TLanguage): string {
  if (campaign.status === 'cancelled') return t('campaign.statistics.nothing_sent.cancelled');
  if (campaign.status === 'sent' || campaign.status === 'failed') return t('campaign.statistics.nothing_sent.ended');
  if (campaign.paused) return t('campaign.statistics.nothing_sent.paused');
  if (campaign.problem) return t('campaign.statistics.nothing_sent.problem');
  if (campaign.hold?.whole)
    return t('campaign.statistics.nothing_sent.waiting', {
      date: formatDate(campaign.hold.until, language, { withTime: true, timeZone: campaign.timeZone }),
    });
  return t('campaign.statistics.nothing_sent.sending');
}

function Figure({
  label,
  value,
  detail,
  testId,
  hint,
}: {
  label: string;
  value: string;
  detail?: ReactNode;
  testId: string;
  hint?: string;
}) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={`stat-${testId}`}>
      <Group gap={4}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {label}
        </Text>
        {hint && (
          <Tooltip label={hint} multiline w={280}>
            <IconInfoCircle size={14} aria-label={hint} />
          </Tooltip>
        )}
      </Group>
      <Text fz={26} fw={700} data-testid={`stat-${testId}-value`}>
        {value}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </Paper>
  );
}

function Figures({
  report,
  language,
  campaign,
}: {
  report: TCampaignReport;
  language: TLanguage;
  campaign: TCampaign;
}) {
  const { t } = useTranslation();
  const { totals, rates } = report;
  const n = (value: number) => formatCount(value, language);
  // A sentence is built around a number only: with none to count from, it says so instead.
  const pair = (unique: number | null, total: number | null) =>
    unique === null || total === null
      ? t('campaign.statistics.none_delivered')
      : `${t('campaign.statistics.unique', { value: formatRate(unique, language) })} · ${t(
          'campaign.statistics.total',
          {
            value: formatRate(total, language),
          },
        )}`;
  const ofHanded = (rate: number | null) =>
    rate === null
      ? t('campaign.statistics.none_handed')
      : t('campaign.statistics.rate_of_handed', { rate: formatRate(rate, language) });
  const ofDelivered = (rate: number | null) =>
    rate === null
      ? t('campaign.statistics.none_delivered')
      : t('campaign.statistics.rate_of_delivered', { rate: formatRate(rate, language) });
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      <Figure
        label={t('campaign.statistics.sent')}
        value={n(totals.sent)}
        testId="sent"
        detail={
          campaign.statistics.audience !== null
            ? t('campaign.statistics.audience', { count: n(campaign.statistics.audience) })
            : undefined
        }
      />
      <Figure
        label={t('campaign.statistics.delivered')}
        value={n(totals.delivered)}
        testId="delivered"
        hint={t('campaign.statistics.delivered_hint')}
      />
      <Figure
        label={t('campaign.statistics.opens')}
        value={n(totals.uniqueOpens)}
        testId="opens"
        detail={t('campaign.statistics.total', { value: n(totals.opens) })}
      />
      <Figure label={t('campaign.statistics.unopened')} value={n(report.unopened)} testId="unopened" />
      <Figure
        label={t('campaign.statistics.clicks')}
        value={n(totals.uniqueClicks)}
        testId="clicks"
        detail={t('campaign.statistics.total', { value: n(totals.clicks) })}
      />
      <Figure
        label={t('campaign.statistics.conversions')}
        value={n(totals.conversions)}
        testId="conversions"
        detail={`${t('campaign.statistics.revenue')} ${formatMoney(totals.revenue, 'JPY', language)}`}
      />
      <Figure
        label={t('campaign.statistics.failed')}
        value={n(totals.failed)}
        testId="failed"
        hint={t('campaign.statistics.failed_hint')}
        detail={t('campaign.statistics.bounced', { count: n(totals.bounced) })}
      />
      <Figure
        label={t('campaign.statistics.skipped')}
        value={n(totals.skipped)}
        testId="skipped"
        hint={t('campaign.statistics.skipped_hint')}
      />
      {campaign.experiment.holdoutPercent !== null && (
        <Figure
          label={t('campaign.statistics.held_out')}
          value={n(campaign.statistics.heldOut)}
          testId="held-out"
          hint={t('campaign.statistics.held_out_hint')}
        />
      )}
      <Figure
        label={t('campaign.statistics.hard_bounces')}
        value={n(totals.hardBounces)}
        testId="hard-bounces"
        hint={t('campaign.statistics.hard_bounces_hint')}
        detail={ofHanded(rates.hardBounceRate)}
      />
      <Figure
        label={t('campaign.statistics.soft_bounces')}
        value={n(totals.softBounces)}
        testId="soft-bounces"
        hint={t('campaign.statistics.soft_bounces_hint')}
        detail={ofHanded(rates.softBounceRate)}
      />
      <Figure
        label={t('campaign.statistics.complaints')}
        value={n(totals.complaints)}
        testId="complaints"
        hint={t('campaign.statistics.complaints_hint')}
        detail={ofDelivered(rates.complaintRate)}
      />
      {campaign.statistics.repeats > 0 && (
        <Figure
          label={t('campaign.statistics.repeats')}
          value={n(campaign.statistics.repeats)}
          testId="repeats"
          detail={t('campaign.statistics.repeats_detail')}
        />
      )}
      <Figure
        label={t('campaign.statistics.open_rate')}
        value={formatRate(rates.uniqueOpenRate, language)}
        testId="open-rate"
        detail={pair(rates.uniqueOpenRate, rates.totalOpenRate)}
      />
      <Figure
        label={t('campaign.statistics.click_rate')}
        value={formatRate(rates.uniqueClickRate, language)}
        testId="click-rate"
        detail={pair(rates.uniqueClickRate, rates.totalClickRate)}
      />
      <Figure
        label={t('campaign.statistics.machine_opens')}
        value={n(totals.machineOpens)}
        testId="machine-opens"
        hint={t('campaign.statistics.machine_opens_hint')}
      />
      <Figure label={t('campaign.statistics.unsubscribes')} value={n(totals.unsubscribes)} testId="unsubscribes" />
    </SimpleGrid>
  );
}

function Statistics({ campaign, canPick }: { campaign: TCampaign; canPick: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [interval, setInterval] = useState<'day' | 'hour'>('hour');
  const report = useQuery(reportQuery(campaign.id));
  // Kept for the whole campaign only: not asked for one host's guests.
  const whole = campaign.scope === 'campaign';
  const series = useQuery({ ...seriesQuery(campaign.id, interval, campaign.timeZone), enabled: whole });
  const links = useQuery({ ...linksQuery(campaign.id), enabled: whole });
  const hotels = useQuery(hotelsQuery(campaign.id));
  const failure = report.error ?? series.error ?? links.error ?? hotels.error;

  return (
    <Stack gap="lg">
      {failure && (
        <Text c="red" role="alert">
          {errorText(failure, t)}
        </Text>
      )}
      {report.data?.warning && (
        <Alert color="orange" data-testid="campaign-protection-warning">
          {warningText(report.data.warning, t, language, campaign.status !== 'pending')}
        </Alert>
      )}
      {report.data && report.data.totals.sent + report.data.totals.failed === 0 && (
        <Alert color="gray" data-testid="campaign-nothing-sent">
          {nothingSentText(campaign, t, language)}
        </Alert>
      )}
      {report.data ? (
        <Figures report={report.data} language={language} campaign={campaign} />
      ) : (
        !failure && <Loader size="sm" />
      )}
      {(campaign.experiment.variants.length > 0 || campaign.experiment.holdoutPercent !== null) && (
        <ExperimentReport campaign={campaign} canPick={canPick} />
      )}
      {whole && (
        <Paper withBorder radius="md" p="md">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              {t('campaign.statistics.over_time')}
            </Title>
            <SegmentedControl
              size="xs"
              value={interval}
              onChange={(value) => setInterval(value as 'day' | 'hour')}
              data={[
                { value: 'hour', label: t('campaign.statistics.per_hour') },
                { value: 'day', label: t('campaign.statistics.per_day') },
              ]}
            />
          </Group>
          {series.data && chartHasEvents(series.data.points) ? (
            <Suspense
              fallback={
                <Text size="sm" c="dimmed">
                  {t('campaign.statistics.chart_loading')}
                </Text>
              }
            >
              <CampaignChart series={series.data} />
            </Suspense>
          ) : (
            <Text size="sm" c="dimmed" data-testid="campaign-no-events">
              {t('campaign.statistics.no_events')}
            </Text>
          )}
        </Paper>
      )}
      <SimpleGrid cols={{ base: 1, lg: whole ? 2 : 1 }} spacing="lg">
        {whole && (
          <Paper withBorder radius="md" p="md">
            <Title order={2} size="h4" mb="sm">
              {t('campaign.statistics.per_link')}
            </Title>
            <Table data-testid="campaign-links">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('campaign.statistics.link')}</Table.Th>
                  <Table.Th ta="right">{t('campaign.statistics.unique_clicks')}</Table.Th>
                  <Table.Th ta="right">{t('campaign.statistics.clicks')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(links.data?.links ?? []).map((link) => (
                  <Table.Tr key={link.index} data-testid="campaign-link" data-url={link.url}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{link.url}</Table.Td>
                    <Table.Td ta="right">{formatCount(link.uniqueClicks, language)}</Table.Td>
                    <Table.Td ta="right" data-testid="campaign-link-clicks">
                      {formatCount(link.clicks, language)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {links.data?.links.length === 0 && (
              <Text size="sm" c="dimmed" mt="xs">
                {t('campaign.statistics.no_events')}
              </Text>
            )}
          </Paper>
        )}
        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="sm">
            {t('campaign.statistics.per_hotel')}
          </Title>
          <Table.ScrollContainer minWidth={420}>
            <Table data-testid="campaign-hotels">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('campaign.statistics.hotel')}</Table.Th>
                  <Table.Th ta="right">{t('campaign.statistics.sent')}</Table.Th>
                  <Table.Th ta="right">{t('campaign.statistics.open_rate')}</Table.Th>
                  <Table.Th ta="right">{t('campaign.statistics.click_rate')}</Table.Th>
                  <Table.Th ta="right">{t('campaign.statistics.conversions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(hotels.data?.hotels ?? []).map((hotel) => (
                  <Table.Tr key={hotel.hostId} data-testid="campaign-hotel" data-name={hotel.hostName}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{hotel.hostName}</Table.Td>
                    <Table.Td ta="right">{formatCount(hotel.sent, language)}</Table.Td>
                    <Table.Td ta="right">
                      {formatRate(hotel.delivered > 0 ? hotel.uniqueOpens / hotel.delivered : null, language)}
                    </Table.Td>
                    <Table.Td ta="right">
                      {formatRate(hotel.delivered > 0 ? hotel.uniqueClicks / hotel.delivered : null, language)}
                    </Table.Td>
                    <Table.Td ta="right">{formatCount(hotel.conversions, language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {hotels.data?.hotels.length === 0 && (
            <Text size="sm" c="dimmed" mt="xs" data-testid="campaign-no-hotels">
              {t('campaign.statistics.no_hotels')}
            </Text>
          )}
        </Paper>
      </SimpleGrid>
      <Recipients campaignId={campaign.id} timeZone={campaign.timeZone} />
    </Stack>
  );
}

function Recipients({ campaignId, timeZone }: { campaignId: string; timeZone: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [status, setStatus] = useState<TRecipientStatus | ''>('');
  const [repeatsOnly, setRepeatsOnly] = useState(false);
  const [feedback, setFeedback] = useState<TRecipientFeedbackKind | ''>('');
  const pages = useInfiniteQuery(recipientsQuery(campaignId, status, repeatsOnly, feedback));
  const items: TRecipient[] = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm" align="flex-end">
        <Title order={2} size="h4">
          {t('campaign.statistics.recipients')}
        </Title>
        <Group gap="md" align="flex-end">
          <Checkbox
            label={t('campaign.statistics.repeats_only')}
            checked={repeatsOnly}
            onChange={(e) => setRepeatsOnly(e.currentTarget.checked)}
            mb={8}
          />
          <NativeSelect
            label={t('campaign.statistics.feedback_filter')}
            value={feedback}
            onChange={(e) => setFeedback(e.currentTarget.value as TRecipientFeedbackKind | '')}
            data={[
              { value: '', label: t('campaign.statistics.all_feedback') },
              ...LISTED_FEEDBACK.map((k) => ({ value: k, label: t(`campaign.feedback.${k}`) })),
            ]}
          />
          <NativeSelect
            label={t('campaign.statistics.delivery_status')}
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as TRecipientStatus | '')}
            data={[
              { value: '', label: t('campaign.list.all_statuses') },
              ...DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`campaign.delivery_status.${s}`) })),
            ]}
          />
        </Group>
      </Group>
      {pages.isError ? (
        <Text c="red" role="alert">
          {errorText(pages.error, t)}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table data-testid="campaign-recipients">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('campaign.statistics.recipient')}</Table.Th>
                <Table.Th>{t('campaign.statistics.delivery_status')}</Table.Th>
                <Table.Th>{t('campaign.statistics.sent_at')}</Table.Th>
                <Table.Th>{t('campaign.statistics.events')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((recipient) => (
                <Table.Tr
                  key={recipient.deliveryId}
                  data-testid="campaign-recipient"
                  data-email={recipient.email ?? ''}
                  data-status={recipient.status}
                  data-possible-repeat={recipient.possibleRepeat || undefined}
                >
                  <Table.Td>
                    <Anchor component={Link} to={`/customer-list/${recipient.customerId}`} size="sm">
                      {recipient.name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {recipient.email ?? '-'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={recipient.status === 'failed' ? 'red' : recipient.status === 'sent' ? 'green' : 'gray'}
                    >
                      {recipient.skipReason === 'holdout'
                        ? t('campaign.statistics.held_out')
                        : t(`campaign.delivery_status.${recipient.status}`)}
                    </Badge>
                    {recipient.possibleRepeat && (
                      <Tooltip label={t('campaign.statistics.repeat_detail')} multiline w={260}>
                        <Badge variant="outline" color="orange" ml={4} data-testid="campaign-recipient-repeat">
                          {t('campaign.statistics.repeats')}
                        </Badge>
                      </Tooltip>
                    )}
                    {recipient.skipReason && (
                      // Why the guest was never mailed (the send's check when their turn came).
                      <Text size="xs" c="dimmed" data-testid="campaign-recipient-skip-reason">
                        {t(`campaign.skip_reason.${recipient.skipReason}`)}
                      </Text>
                    )}
                    {recipient.error && (hasCodeText(recipient.error) || !recipient.feedback) && (
                      // A relay's raw reply has no text of its own ("An error has occurred."): where
                      // the bounce is classified, the diagnostic below says it, and is shown alone.
                      <Text size="xs" c="red" data-testid="campaign-recipient-error">
                        {codeText(recipient.error, t)}
                      </Text>
                    )}
                    {recipient.error && !hasCodeText(recipient.error) && !recipient.feedback && (
                      // Unclassified (no bounce to name it): the relay's own words under the generic
                      // text, as a bounce shows its diagnostic (the server hides any other address).
                      <Text
                        size="xs"
                        c="dimmed"
                        data-testid="campaign-recipient-reply"
                        style={{ wordBreak: 'break-word' }}
                      >
                        {recipient.error}
                      </Text>
                    )}
                    {recipient.feedback && (
                      // The bounce or complaint as classified, and the relay's own words (issue 25).
                      <Text
                        size="xs"
                        c="orange.8"
                        data-testid="campaign-recipient-feedback"
                        style={{ wordBreak: 'break-word' }}
                      >
                        {[
                          t(`campaign.feedback.${recipient.feedback.kind}`),
                          recipient.feedback.status,
                          recipient.feedback.diagnostic,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {recipient.sentAt ? formatDate(recipient.sentAt, language, { withTime: true, timeZone }) : '-'}
                  </Table.Td>
                  <Table.Td>
                    {recipient.events.length === 0 ? (
                      <Text size="xs" c="dimmed">
                        -
                      </Text>
                    ) : (
                      <Group gap={4} data-testid="campaign-recipient-events">
                        {recipient.events.map((event, index) => (
                          <Tooltip
                            key={`${event.kind}-${event.at}-${index}`}
                            label={[formatDate(event.at, language, { withTime: true, timeZone }), event.url]
                              .filter(Boolean)
                              .join(' · ')}
                          >
                            <Badge size="sm" variant="outline" data-kind={event.kind}>
                              {t(`campaign.event.${event.kind}`)}
                            </Badge>
                          </Tooltip>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages.data && items.length === 0 && (
        <Text size="sm" c="dimmed" mt="xs" data-testid="campaign-no-recipients">
          {t(
            status || repeatsOnly || feedback
              ? 'campaign.statistics.no_recipients'
              : 'campaign.statistics.no_recipients_yet',
          )}
        </Text>
      )}
      {pages.hasNextPage && (
        <Center mt="sm">
          <Button variant="default" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
            {t('campaign.statistics.more')}
          </Button>
        </Center>
      )}
    </Paper>
  );
}
