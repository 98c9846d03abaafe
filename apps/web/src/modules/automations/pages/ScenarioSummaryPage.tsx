import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Timeline,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type {
  TJourney,
  TNodeCounts,
  TNodeStatus,
  TScenario,
  TScenarioHold,
  TScenarioNode,
} from '@yado/contracts/scenarios';
import { IconPencil, IconPlayerPause, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { formatCount, formatRate } from '../../campaigns/components/numbers';
import { scenarioHoldoutQuery } from '../../experiments/api/experimentsCalls';
import { HoldoutReport } from '../../experiments/components/HoldoutReport';
import { useProfile } from '../../shell/hooks/useProfile';
import { PageHeader } from '../../ui/components/PageHeader';
import { emailDetailsQuery, executionLogQuery, journeysQuery, scenarioQuery } from '../api/scenariosCalls';
import { runPeriodText } from '../components/runPeriodText';
import { journeyStepDetail } from '../components/journeyStepDetail';
import { leftOtherwise, NODE_STATE_COLOR } from '../components/nodeState';
import { ScenarioStatusBadge } from '../components/ScenarioStatusBadge';
import { nodeText } from '../graph/nodeText';
import { editorPath, useScenarioActions } from '../hooks/useScenarioActions';
import { scenarioActionsFor } from '../scenarioActions';

/** Each guest who entered a step is counted in one column; those a stop took out only once there are any. */
const COUNT_COLUMNS = ['entered', 'waiting', 'done', 'failed', 'left', 'stopped'] as const;
type TCountColumn = (typeof COUNT_COLUMNS)[number];
const countOf = (counts: TNodeCounts, key: TCountColumn) => (key === 'left' ? leftOtherwise(counts) : counts[key]);

function stepName(scenario: TScenario, nodeId: string | null, t: ReturnType<typeof useTranslation>['t']): string {
  const node = scenario.graph.nodes.find((n) => n.id === nodeId);
  return node ? `${t(`automations.kind.${node.type}`)}: ${nodeText(node, t)}` : (nodeId ?? '-');
}

/**
 * Why a step of a stopped scenario holds no one: those still there when it stopped left because of
 * the stop. At the entrance they were waiting for their time to go on (a stay's "3 days before").
 */
function stoppedText(
  node: TScenarioNode,
  status: TNodeStatus,
  t: ReturnType<typeof useTranslation>['t'],
  language: ReturnType<typeof currentLanguage>,
): string {
  const count = status.counts.stopped;
  const guests = formatCount(count, language);
  return node.type === 'trigger'
    ? t('automations.summary.stopped_at_entrance', { count, guests })
    : t('automations.summary.stopped_at_step', { count, guests });
}

/** Why mails queued at a step do not go out now: the quiet hours, until when on the hotel's clock. */
function holdText(hold: TScenarioHold, t: ReturnType<typeof useTranslation>['t']): string {
  return hold.otherHosts > 0
    ? t('automations.summary.hold_quiet_hours_more', {
        time: hold.localTime,
        host: hold.hostName,
        count: hold.otherHosts,
      })
    : t('automations.summary.hold_quiet_hours', { time: hold.localTime, host: hold.hostName });
}

/**
 * Where a waiting customer stands: held by the quiet hours (until when, on the hotel's clock),
 * waiting for a date (in the scenario's time zone), or for the mail on its way.
 */
function journeyWait(
  journey: TJourney,
  t: ReturnType<typeof useTranslation>['t'],
  language: ReturnType<typeof currentLanguage>,
  timeZone: string,
): string | null {
  if (journey.state !== 'waiting') return null;
  if (journey.hold)
    return t('automations.journey_hold.quiet_hours', { time: journey.hold.localTime, host: journey.hold.hostName });
  if (journey.dueAt)
    return t('automations.journey_hold.waiting_until', {
      date: formatDate(journey.dueAt, language, { withTime: true, timeZone }),
    });
  return t('automations.journey_hold.mail_on_its_way');
}

/** What the scenario caused: its holdout compared with the guests it mailed. */
function ScenarioHoldout({ scenarioId }: { scenarioId: string }) {
  const { t } = useTranslation();
  const holdout = useQuery(scenarioHoldoutQuery(scenarioId));
  if (holdout.isError) {
    return (
      <Text c="red" role="alert">
        {errorText(holdout.error, t)}
      </Text>
    );
  }
  return holdout.data ? <HoldoutReport holdout={holdout.data} subject="scenario" /> : null;
}

function CustomerPath({ scenario }: { scenario: TScenario }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const journeys = useQuery(journeysQuery(scenario.id, search));
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('automations.summary.path')}
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(text.trim());
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('automations.summary.path_search')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              leftSection={<IconSearch size={16} />}
              style={{ flex: 1 }}
              data-testid="path-search"
            />
            <Button type="submit" variant="default" disabled={text.trim() === ''}>
              {t('automations.summary.path_find')}
            </Button>
          </Group>
        </form>
        {journeys.isError && (
          <Text c="red" role="alert">
            {errorText(journeys.error, t)}
          </Text>
        )}
        {journeys.data && journeys.data.items.length === 0 && (
          <Text size="sm">{t('automations.summary.path_none')}</Text>
        )}
        {journeys.data?.items.map((journey) => (
          <Stack key={journey.id} gap="xs" data-testid="journey">
            <Group gap="xs">
              <Text fw={600}>{journey.customerName}</Text>
              <Badge variant="light">{t(`automations.journey_state.${journey.state}`)}</Badge>
              {journey.state === 'waiting' && (
                <Text size="sm" c="dimmed" data-testid="journey-wait">
                  {journeyWait(journey, t, language, scenario.run.timeZone)}
                </Text>
              )}
            </Group>
            <Timeline bulletSize={14} lineWidth={2}>
              {journey.path.map((step, index) => (
                <Timeline.Item
                  key={`${step.nodeId}-${index}`}
                  title={stepName(scenario, step.nodeId, t)}
                  data-testid="journey-step"
                >
                  <Text size="xs" c="dimmed">
                    {formatDate(step.at, language, { withTime: true, timeZone: scenario.run.timeZone })} ·{' '}
                    {t(`automations.journey_event.${step.event}`, { defaultValue: step.event })}
                    {step.detail ? ` · ${journeyStepDetail(step, t, language, scenario.run.timeZone)}` : ''}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

/** /automations/scenario/:id: the execution log, a customer's path, and the email details per email step. */
export function ScenarioSummaryPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const can = useProfile().entitlements;
  const id = useParams().id ?? '';
  const scenario = useQuery(scenarioQuery(id));
  const running = scenario.data?.status === 'running';
  const log = useQuery({ ...executionLogQuery(id, running), enabled: Boolean(scenario.data) });
  const emails = useQuery({ ...emailDetailsQuery(id, running), enabled: Boolean(scenario.data) });
  const actions = useScenarioActions({
    onDone: (action) => action === 'delete' && void navigate('/automations/scenario'),
  });

  if (scenario.isError) {
    return (
      <Alert color="red" role="alert" data-testid="summary-error">
        {errorText(scenario.error, t)}
      </Alert>
    );
  }
  const data = scenario.data;
  if (!data) return null;
  const allowed = scenarioActionsFor(data.status, data.editable, can);
  const nodes = log.data?.nodes ?? data.nodes;
  const runs = log.data?.runs ?? [];
  const holdOfNode = (nodeId: string) => nodes.find((n) => n.nodeId === nodeId)?.hold ?? null;
  const columns = COUNT_COLUMNS.filter((key) => key !== 'stopped' || nodes.some((n) => n.counts.stopped > 0));

  return (
    <>
      <PageHeader
        title={data.name}
        description={runPeriodText(data.run, t)}
        actions={
          <Group gap="sm">
            <ScenarioStatusBadge status={data.status} />
            <Button component={Link} to={editorPath(data.id)} variant="default" leftSection={<IconPencil size={16} />}>
              {t('automations.summary.edit')}
            </Button>
            {allowed.includes('stop') && (
              <Button
                color="red"
                leftSection={<IconPlayerPause size={16} />}
                onClick={() => actions.run('stop', data)}
                data-testid="summary-stop"
              >
                {t('automations.actions.stop')}
              </Button>
            )}
          </Group>
        }
      />
      <Stack gap="md" data-testid="scenario-summary" data-status={data.status}>
        <Text size="xs" c="dimmed" data-testid="summary-time-zone">
          {t('automations.time_zone_note', { timeZone: data.run.timeZone })}
        </Text>
        {running && (
          <Text size="xs" c="dimmed">
            {t('automations.summary.refreshing')}
          </Text>
        )}
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('automations.summary.log')}
            </Title>
            {runs.length === 0 ? (
              <Text size="sm">{t('automations.summary.no_runs')}</Text>
            ) : (
              <Table data-testid="summary-runs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('automations.summary.runs')}</Table.Th>
                    <Table.Th>{t('automations.summary.run_started')}</Table.Th>
                    <Table.Th>{t('automations.summary.run_finished')}</Table.Th>
                    <Table.Th>{t('automations.counts.entered')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {runs.map((run) => (
                    <Table.Tr key={run.run}>
                      <Table.Td>{run.run}</Table.Td>
                      <Table.Td>
                        {formatDate(run.startedAt, language, { withTime: true, timeZone: data.run.timeZone })}
                      </Table.Td>
                      <Table.Td>
                        {run.endedAt
                          ? formatDate(run.endedAt, language, { withTime: true, timeZone: data.run.timeZone })
                          : '-'}
                      </Table.Td>
                      <Table.Td>{formatCount(run.entered, language)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Title order={3} size="h5">
              {t('automations.summary.nodes')}
            </Title>
            <Table.ScrollContainer minWidth={700}>
              <Table data-testid="summary-nodes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('automations.summary.node')}</Table.Th>
                    <Table.Th>{t('automations.summary.path_state')}</Table.Th>
                    {columns.map((key) => (
                      <Table.Th key={key}>{t(`automations.counts.${key}`)}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.graph.nodes.map((node) => {
                    const status = nodes.find((n) => n.nodeId === node.id);
                    return (
                      <Table.Tr
                        key={node.id}
                        data-testid="summary-node"
                        data-node-id={node.id}
                        data-node-type={node.type}
                      >
                        <Table.Td>{stepName(data, node.id, t)}</Table.Td>
                        <Table.Td>
                          {status?.state && (
                            <Badge color={NODE_STATE_COLOR[status.state]} variant="dot">
                              {t(`automations.node_state.${status.state}`)}
                            </Badge>
                          )}
                          {status?.state === 'error' && status.message && (
                            <Text size="xs" c="red">
                              {t(`errors.${status.message}`, { defaultValue: t('errors.general') })}
                            </Text>
                          )}
                          {status?.hold && (
                            <Text size="xs" c="orange.8" maw={320} data-testid="summary-node-hold">
                              {holdText(status.hold, t)}
                            </Text>
                          )}
                          {status?.nextDueAt && status.counts.waiting > 0 && (
                            <Text size="xs" c="dimmed" maw={320} data-testid="summary-node-next">
                              {t('automations.summary.next_due', {
                                date: formatDate(status.nextDueAt, language, {
                                  withTime: true,
                                  timeZone: data.run.timeZone,
                                }),
                              })}
                            </Text>
                          )}
                          {status?.state === 'stopped' && (
                            <Text size="xs" c="dimmed" maw={320} data-testid="summary-node-stopped">
                              {stoppedText(node, status, t, language)}
                            </Text>
                          )}
                        </Table.Td>
                        {columns.map((key) => (
                          <Table.Td key={key} data-count={key}>
                            {formatCount(status ? countOf(status.counts, key) : 0, language)}
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('automations.summary.emails')}
            </Title>
            {emails.isError && (
              <Text c="red" role="alert">
                {errorText(emails.error, t)}
              </Text>
            )}
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {(emails.data?.items ?? []).map((email) => (
                <Paper
                  key={email.nodeId}
                  withBorder
                  p="sm"
                  radius="sm"
                  data-testid="summary-email"
                  data-node-id={email.nodeId}
                >
                  <Stack gap={4}>
                    <Text fw={600}>{email.subject || stepName(data, email.nodeId, t)}</Text>
                    <Text size="sm" data-testid="summary-email-counts" data-sent={email.sent}>
                      {t('automations.summary.email_stats', {
                        sent: formatCount(email.sent, language),
                        opened: email.opened === null ? '-' : formatCount(email.opened, language),
                        clicked: email.clicked === null ? '-' : formatCount(email.clicked, language),
                        failed: formatCount(email.failed, language),
                      })}
                    </Text>
                    <Text size="xs" c="dimmed" data-testid="summary-email-rates">
                      {t('automations.summary.email_rates', {
                        open: formatRate(email.openRate, language),
                        click: formatRate(email.clickRate, language),
                        queued: formatCount(email.queued, language),
                        skipped: formatCount(email.skipped, language),
                      })}
                    </Text>
                    {email.skippedBy.length > 0 && (
                      <div data-testid="summary-email-skipped-by">
                        <Text size="xs" c="dimmed" id={`skipped-by-${email.nodeId}`}>
                          {t('automations.summary.email_skipped_by')}
                        </Text>
                        <List size="xs" c="dimmed" aria-labelledby={`skipped-by-${email.nodeId}`}>
                          {email.skippedBy.map(({ reason, count }) => (
                            <List.Item key={reason}>
                              {t('automations.summary.email_skipped_reason', {
                                reason: t([`automations.journey_reason.${reason}`], { defaultValue: reason }),
                                guests: formatCount(count, language),
                              })}
                            </List.Item>
                          ))}
                        </List>
                      </div>
                    )}
                    {holdOfNode(email.nodeId) && (
                      <Text size="xs" c="orange.8" data-testid="summary-email-hold">
                        {holdText(holdOfNode(email.nodeId) as TScenarioHold, t)}
                      </Text>
                    )}
                    {email.cancelled > 0 && (
                      <Text size="xs" c="dimmed" data-testid="summary-email-cancelled">
                        {t('automations.summary.email_cancelled', {
                          count: email.cancelled,
                          mails: formatCount(email.cancelled, language),
                        })}
                      </Text>
                    )}
                  </Stack>
                </Paper>
              ))}
            </SimpleGrid>
          </Stack>
        </Paper>
        {data.holdoutPercent !== null && <ScenarioHoldout scenarioId={data.id} />}
        <CustomerPath scenario={data} />
        <Anchor component={Link} to="/automations/scenario" size="sm">
          {t('automations.editor.back')}
        </Anchor>
      </Stack>
      {actions.dialog}
    </>
  );
}
