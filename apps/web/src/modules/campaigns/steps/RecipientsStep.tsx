import { Alert, Anchor, Group, Loader, MultiSelect, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CAMPAIGN_MAX_SEGMENTS, type TAudiencePreview } from '@yado/contracts/campaigns';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { segmentChoicesQuery } from '../../segmentation/api/segmentsCalls';
import { audienceQuery } from '../api/campaignsCalls';
import type { TProblem } from '../campaignDraft';
import { formatCount } from '../components/numbers';
import type { TStepProps } from './stepProps';

const ROWS = ['unsubscribed', 'noEmail', 'bounced', 'frequencyCapped'] as const;
const ROW_KEYS: Record<(typeof ROWS)[number], string> = {
  unsubscribed: 'campaign.recipients.audience_rows.unsubscribed',
  noEmail: 'campaign.recipients.audience_rows.no_email',
  bounced: 'campaign.recipients.audience_rows.bounced',
  frequencyCapped: 'campaign.recipients.audience_rows.frequency_capped',
};

export interface TRecipientsStepProps extends TStepProps {
  frequencyCap: { count: number; days: number } | null;
  /** Whether the user may create a segment (a host without any is then pointed to it). */
  canCreateSegments: boolean;
}

/**
 * One or more segments, and segments to exclude; the server counts the audience as the send would
 * take it: each customer once, minus the unsubscribed, those without an email and those held by
 * the frequency cap.
 */
export function RecipientsStep({
  draft,
  change,
  problems,
  readOnly,
  frequencyCap,
  canCreateSegments,
}: TRecipientsStepProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const text = (problem: TProblem | undefined) => (problem ? t(problem.key, problem.values) : undefined);
  const segments = useQuery(segmentChoicesQuery(''));
  const options = (segments.data ?? []).map((s) => ({ value: s.id, label: s.name }));
  // A chosen segment not in the first page of choices still shows by its id until it loads.
  const known = new Set(options.map((o) => o.value));
  const withChosen = [
    ...options,
    ...[...draft.segmentIds, ...draft.excludeSegmentIds]
      .filter((id) => !known.has(id))
      .map((id) => ({ value: id, label: id })),
  ];
  const audience = useQuery(
    audienceQuery({ segmentIds: draft.segmentIds, excludeSegmentIds: draft.excludeSegmentIds }),
  );
  // A host without any segment could only open an empty list ("No data"): say why and where to make one.
  const noSegments = segments.isSuccess && segments.data.length === 0 && draft.segmentIds.length === 0;

  return (
    <Stack gap="md" maw={720}>
      <MultiSelect
        label={t('campaign.recipients.include')}
        description={t('campaign.recipients.include_hint')}
        placeholder={draft.segmentIds.length === 0 ? t('campaign.recipients.choose') : undefined}
        data={withChosen.filter((o) => !draft.excludeSegmentIds.includes(o.value))}
        value={draft.segmentIds}
        onChange={(segmentIds) => change({ segmentIds })}
        searchable
        clearable
        maxValues={CAMPAIGN_MAX_SEGMENTS}
        readOnly={readOnly}
        error={text(problems.segmentIds)}
        data-testid="campaign-segments"
        nothingFoundMessage={segments.isFetching ? undefined : t('ui.empty.no_data')}
      />
      {noSegments && !readOnly && (
        <Alert color="blue" data-testid="campaign-no-segments">
          {t('campaign.recipients.no_segments')}
          {canCreateSegments && (
            <Anchor component={Link} to="/segmentation/new" size="sm" display="block" mt={4}>
              {t('campaign.recipients.create_segment')}
            </Anchor>
          )}
        </Alert>
      )}
      <MultiSelect
        label={t('campaign.recipients.exclude')}
        description={t('campaign.recipients.exclude_hint')}
        data={withChosen.filter((o) => !draft.segmentIds.includes(o.value))}
        value={draft.excludeSegmentIds}
        onChange={(excludeSegmentIds) => change({ excludeSegmentIds })}
        searchable
        clearable
        maxValues={CAMPAIGN_MAX_SEGMENTS}
        readOnly={readOnly}
        error={text(problems.excludeSegmentIds)}
        data-testid="campaign-exclude-segments"
        nothingFoundMessage={segments.isFetching ? undefined : t('ui.empty.no_data')}
      />
      {draft.segmentIds.length > 0 && (
        <Paper withBorder radius="md" p="md" data-testid="campaign-audience">
          <Group justify="space-between" mb="xs">
            <Text fw={600}>{t('campaign.recipients.audience')}</Text>
            {audience.isFetching && <Loader size="xs" aria-label={t('campaign.recipients.audience_counting')} />}
          </Group>
          {audience.isError ? (
            <Text c="red" size="sm" role="alert">
              {errorText(audience.error, t)}
            </Text>
          ) : audience.data ? (
            <AudienceTable audience={audience.data} language={language} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('campaign.recipients.audience_counting')}
            </Text>
          )}
          {frequencyCap && (
            <Text size="xs" c="dimmed" mt="xs">
              {t('campaign.recipients.frequency_cap', frequencyCap)}
            </Text>
          )}
          {audience.data?.recipients === 0 && (
            <Alert color="orange" mt="sm" role="alert">
              {t('campaign.recipients.empty_audience')}
            </Alert>
          )}
        </Paper>
      )}
    </Stack>
  );
}

function AudienceTable({ audience, language }: { audience: TAudiencePreview; language: 'ja' | 'en' }) {
  const { t } = useTranslation();
  return (
    <Table withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        <Table.Tr>
          <Table.Td>{t('campaign.recipients.audience_rows.matched')}</Table.Td>
          <Table.Td ta="right" data-testid="audience-matched">
            {formatCount(audience.matched, language)}
          </Table.Td>
        </Table.Tr>
        {ROWS.map((row) => (
          <Table.Tr key={row}>
            <Table.Td c="dimmed">{t(ROW_KEYS[row])}</Table.Td>
            <Table.Td ta="right" c="dimmed" data-testid={`audience-${row}`}>
              − {formatCount(audience[row], language)}
            </Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <Table.Td fw={700}>{t('campaign.recipients.audience_rows.recipients')}</Table.Td>
          <Table.Td ta="right" fw={700} data-testid="audience-recipients">
            {formatCount(audience.recipients, language)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
