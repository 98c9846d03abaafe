import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCampaign } from '@yado/contracts/campaigns';
import type { TExperimentReport, TVariantKey } from '@yado/contracts/experiments';
import { IconAlertTriangle, IconTrophy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { CAMPAIGNS_QUERY_KEY } from '../../campaigns/api/campaignsCalls';
import { formatCount, formatMoney } from '../../campaigns/components/numbers';
import { useConfirmedAction } from '../../ui/hooks/useConfirmedAction';
import { experimentReportQuery, pickWinner } from '../api/experimentsCalls';
import { decisionText, phaseText, rateWithInterval } from '../experimentTexts';
import { HoldoutReport } from './HoldoutReport';

/** The campaign's A/B test (phase, variants with their intervals, the winner and why) and its holdout. */
export function ExperimentReport({ campaign, canPick }: { campaign: TCampaign; canPick: boolean }) {
  const { t } = useTranslation();
  const report = useQuery(experimentReportQuery(campaign.id));
  if (report.isError) {
    return (
      <Text c="red" role="alert">
        {errorText(report.error, t)}
      </Text>
    );
  }
  if (!report.data) return null;
  return (
    <>
      {report.data.variants.length > 0 && <VariantsReport report={report.data} campaign={campaign} canPick={canPick} />}
      <HoldoutReport holdout={report.data.holdout} subject="campaign" />
    </>
  );
}

function VariantsReport({
  report,
  campaign,
  canPick,
}: {
  report: TExperimentReport;
  campaign: TCampaign;
  canPick: boolean;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  // A paused campaign (by a user, or by protection) keeps the rest waiting after the pick: they
  // get the winner once it is resumed, and the texts say so rather than "goes to the rest".
  const paused = Boolean(campaign.paused) && campaign.status === 'pending';
  const p = paused ? '_paused' : '';
  const { ask, dialog } = useConfirmedAction<'pick', TVariantKey>({
    perform: (_action, key) => pickWinner(campaign.id, key),
    doneText: (_action, key) => t(`experiments.report.pick_done${p}`, { key }),
    confirmText: (_action, key) => ({
      title: t(`experiments.report.pick_title${p}`, { key }),
      message: t(`experiments.report.pick_message${p}`, { key }),
      confirmLabel: t(`experiments.report.pick_confirm${p}`, { key }),
      cancelLabel: t('experiments.report.pick_cancel'),
    }),
    onDone: () => queryClient.invalidateQueries({ queryKey: CAMPAIGNS_QUERY_KEY }),
    refusalTestId: 'experiment-refusal',
  });
  const decided = report.decision?.key ?? null;
  const decision = decisionText(report, t, language, paused);
  const picking = canPick && (report.phase === 'testing' || report.phase === 'waiting');
  const n = (value: number) => formatCount(value, language);
  return (
    <Paper withBorder radius="md" p="md" data-testid="experiment-report">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('experiments.report.title')}
          </Title>
          <Badge variant="light" data-testid="experiment-phase" data-phase={report.phase}>
            {t(`experiments.report.phase_badge.${report.phase}`)}
          </Badge>
        </Group>
        <Text size="sm" data-testid="experiment-phase-text">
          {phaseText(report, t, language, campaign.timeZone, paused)}
        </Text>
        <Text size="xs" c="dimmed">
          {t('experiments.report.setup', {
            percent: report.testPercent,
            hours: report.waitHours,
            metric: t(`experiments.report.won_on.${report.metric}`),
          })}
        </Text>
        {report.metric === 'opens' && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            {t('experiments.opens_warning')}
          </Alert>
        )}
        <Table.ScrollContainer minWidth={900}>
          <Table data-testid="experiment-variants">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('experiments.report.variant')}</Table.Th>
                <Table.Th ta="right">{t('experiments.report.sends')}</Table.Th>
                <Table.Th ta="right">{t('experiments.report.human_opens')}</Table.Th>
                <Table.Th ta="right">{t('experiments.report.clicks')}</Table.Th>
                <Table.Th ta="right">{t('experiments.report.bookings')}</Table.Th>
                <Table.Th ta="right">{t('experiments.report.revenue')}</Table.Th>
                {picking && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.variants.map((v) => (
                <Table.Tr key={v.key} data-testid="experiment-variant" data-key={v.key}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text fw={600}>{v.key}</Text>
                      {decided === v.key && (
                        <Badge color="green" leftSection={<IconTrophy size={12} />} data-testid="experiment-winner">
                          {t('experiments.report.winner')}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {v.subject}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{n(v.sends)}</Table.Td>
                  <Table.Td ta="right">
                    {n(v.humanOpens)}
                    <Text size="xs" c="dimmed">
                      {rateWithInterval(v.openRate, language)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {n(v.clicks)}
                    <Text size="xs" c="dimmed" data-testid="experiment-click-rate">
                      {rateWithInterval(v.clickRate, language)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {n(v.bookings)}
                    <Text size="xs" c="dimmed">
                      {rateWithInterval(v.bookingRate, language)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(v.revenue, 'JPY', language)}</Table.Td>
                  {picking && (
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => ask('pick', v.key)}
                        data-testid="experiment-pick"
                      >
                        {t('experiments.report.pick', { key: v.key })}
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="dimmed">
          {t('experiments.report.intervals_note')}
        </Text>
        {decision ? (
          <Alert color={report.decision?.kind === 'inconclusive' ? 'gray' : 'green'} data-testid="experiment-decision">
            {decision}
          </Alert>
        ) : (
          picking && (
            <Text size="sm" data-testid="experiment-pick-hint">
              {t('experiments.report.pick_hint')}
            </Text>
          )
        )}
      </Stack>
      {dialog}
    </Paper>
  );
}
