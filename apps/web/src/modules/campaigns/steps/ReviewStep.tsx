import { Alert, Button, Group, Paper, SegmentedControl, Stack, Table, TagsInput, Text, Title } from '@mantine/core';
import { CAMPAIGN_TEST_SEND_MAX } from '@yado/contracts/campaigns';
import { isAccountEmail } from '@yado/contracts/validation';
import { IconMailForward } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { VARIANT_KEYS } from '@yado/contracts/experiments';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { showSnackbar } from '../../ui/components/Snackbar';
import { testSendCampaign } from '../api/campaignsCalls';
import type { TCampaignDraft } from '../campaignDraft';
import { wallClockToInstant } from '../zonedTime';

export interface TReviewStepProps {
  draft: TCampaignDraft;
  sender: string | null;
  segmentNames: (ids: string[]) => string;
  templateName: string | null;
  recipients: number | null;
  /** "Send now" in the quiet hours: when the mails go out (date and zone), else null. */
  heldUntil: string | null;
  incomplete: boolean;
  /** Saves the campaign and gives its id: a test is of the saved campaign. */
  save: () => Promise<string | null>;
  canTest: boolean;
  defaultEmail: string;
  /** The chosen template's languages and its default (null while it loads or none is chosen). */
  templateLanguages: { languages: readonly TMailLanguage[]; defaultLanguage: TMailLanguage } | null;
}

type TMailLanguage = 'ja' | 'en';
const MAIL_LANGUAGES: readonly TMailLanguage[] = ['ja', 'en'];

/** The campaign as it will go out, and a test send to up to five addresses first. */
export function ReviewStep({
  draft,
  sender,
  segmentNames,
  templateName,
  recipients,
  heldUntil,
  incomplete,
  save,
  canTest,
  defaultEmail,
  templateLanguages,
}: TReviewStepProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [emails, setEmails] = useState<string[]>(defaultEmail ? [defaultEmail] : []);
  const [mailLanguage, setMailLanguage] = useState<TMailLanguage>(language);
  // A language the template lacks is not offered: the server would send its default instead, and
  // so does the campaign to guests who read that language, which the note below says.
  const missing = templateLanguages ? MAIL_LANGUAGES.filter((l) => !templateLanguages.languages.includes(l)) : [];
  const testLanguage =
    templateLanguages && missing.includes(mailLanguage) ? templateLanguages.defaultLanguage : mailLanguage;
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const instant =
    draft.scheduleKind === 'at' ? wallClockToInstant({ date: draft.date, time: draft.time }, draft.timeZone) : null;
  const rows: [string, ReactNode][] = [
    [t('campaign.details.name'), draft.name],
    [t('campaign.details.subject'), draft.subject],
    [t('campaign.details.preheader'), draft.preHeader || '-'],
    [t('campaign.details.sender'), sender ?? '-'],
    [t('campaign.recipients.include'), segmentNames(draft.segmentIds) || '-'],
    [t('campaign.recipients.exclude'), segmentNames(draft.excludeSegmentIds) || '-'],
    [t('campaign.recipients.audience_rows.recipients'), recipients === null ? '-' : recipients.toLocaleString()],
    [t('campaign.content.template'), templateName ?? '-'],
    [
      t('campaign.schedule.when'),
      instant
        ? `${formatDate(instant, language, { withTime: true, timeZone: draft.timeZone })} (${draft.timeZone})`
        : heldUntil
          ? t('campaign.schedule.now_held', { date: heldUntil })
          : t('campaign.schedule.now_summary'),
    ],
    [
      t('experiments.editor.title'),
      draft.experiment.variants.length === 0
        ? t('experiments.summary.none')
        : t('experiments.summary.test', {
            variants: draft.experiment.variants.length + 1,
            percent: draft.experiment.testPercent,
            hours: draft.experiment.waitHours,
            // Lower case mid-sentence, as the report says it ("winner by clicks").
            metric: t(`experiments.report.won_on.${draft.experiment.metric}`),
            subjects: [draft.subject, ...draft.experiment.variants.map((v) => v.subject)]
              .map((subject, i) => t('experiments.summary.subject', { key: VARIANT_KEYS[i], subject }))
              .join(t('experiments.summary.separator')),
          }),
    ],
    [
      t('experiments.holdout.switch'),
      draft.experiment.holdoutPercent === null
        ? t('experiments.summary.none')
        : t('experiments.summary.holdout', { percent: draft.experiment.holdoutPercent }),
    ],
  ];

  const test = async () => {
    const invalid = emails.find((email) => !isAccountEmail(email));
    if (emails.length === 0) return setProblem(t('validation.required'));
    if (invalid) return setProblem(t('campaign.review.invalid_email', { email: invalid }));
    setBusy(true);
    setProblem(null);
    try {
      const id = await save();
      if (!id) return;
      const { sent } = await testSendCampaign(id, emails, testLanguage);
      showSnackbar({ status: 'success', message: t('campaign.review.test_sent', { count: sent }) });
    } catch (error) {
      setProblem(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      {incomplete && (
        <Alert color="red" role="alert">
          {t('campaign.review.incomplete')}
        </Alert>
      )}
      <Paper withBorder radius="md" p="md">
        <Title order={3} size="h5" mb="sm">
          {t('campaign.review.summary')}
        </Title>
        <Table withRowBorders={false} verticalSpacing={4} data-testid="campaign-summary">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Td c="dimmed" w={220}>
                  {label}
                </Table.Td>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      {canTest && (
        <Paper withBorder radius="md" p="md" data-testid="campaign-test-send">
          <Title order={3} size="h5" mb="sm">
            {t('campaign.review.test_send')}
          </Title>
          <Stack gap="sm" maw={560}>
            <TagsInput
              label={t('campaign.review.test_emails')}
              description={t('campaign.review.test_emails_hint', { max: CAMPAIGN_TEST_SEND_MAX })}
              value={emails}
              onChange={(next) => setEmails(next.map((e) => e.trim()).filter(Boolean))}
              maxTags={CAMPAIGN_TEST_SEND_MAX}
              splitChars={[',', ' ', ';']}
              acceptValueOnBlur
              clearable
              data-testid="campaign-test-emails"
            />
            <SegmentedControl
              value={testLanguage}
              onChange={(value) => setMailLanguage(value as TMailLanguage)}
              data={MAIL_LANGUAGES.map((l) => ({
                value: l,
                label: t(`campaign.content.languages.${l}`),
                disabled: missing.includes(l),
              }))}
              aria-label={t('campaign.content.preview_language')}
              w={240}
              data-testid="campaign-test-language"
            />
            {templateLanguages &&
              missing.map((l) => (
                <Text key={l} size="sm" c="dimmed" data-testid="campaign-test-language-missing">
                  {t('campaign.review.language_missing', {
                    missing: t(`campaign.content.languages.${l}`),
                    fallback: t(`campaign.content.languages.${templateLanguages.defaultLanguage}`),
                  })}
                </Text>
              ))}
            {problem && (
              <Text c="red" size="sm" role="alert">
                {problem}
              </Text>
            )}
            <Group>
              <Button
                variant="default"
                leftSection={<IconMailForward size={16} />}
                loading={busy}
                onClick={() => void test()}
                data-testid="campaign-test-submit"
              >
                {t('campaign.review.test_submit')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
