import {
  Alert,
  Box,
  Button,
  Center,
  Group,
  Loader,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CAMPAIGN_PRE_HEADER_MAX, CAMPAIGN_SUBJECT_MAX } from '@yado/contracts/campaigns';
import {
  ALTERNATIVE_KEYS,
  EXPERIMENT_MAX_ALTERNATIVES,
  EXPERIMENT_METRICS,
  EXPERIMENT_TEST_PERCENT,
  EXPERIMENT_WAIT_HOURS,
  VARIANT_SENDER_NAME_MAX,
  type TExperimentMetric,
} from '@yado/contracts/experiments';
import { EMAIL_WIDTH } from '@yado/contracts/templates';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { chosenTemplateQuery } from '../../campaigns/api/campaignsCalls';
import {
  variantProblems,
  type TExperimentDraft,
  type TProblem,
  type TVariantDraft,
} from '../../campaigns/campaignDraft';
import { savedPreviewQuery, templateListQuery } from '../../templates/api/templatesCalls';
import { PreviewFrame } from '../../templates/components/PreviewFrame';
import { HoldoutSetting } from './HoldoutSetting';

/** What A, the control, sends: the campaign's own texts. */
export interface TControl {
  subject: string;
  preHeader: string;
  senderName: string | null;
  templateId: string | null;
}

const COLUMN_WIDTH = 320;
// Each column previews its mail at half size: the whole 600 px mail, narrow enough to sit side by side.
const SCALE = 0.5;
const PREVIEW_HEIGHT = 720;

/**
 * The campaign's A/B test: B..D beside A (the campaign's own), each previewed as sent; the test
 * share, the wait and the metric; and the holdout. Saved with the campaign like its other fields.
 */
export function ExperimentEditor({
  experiment,
  control,
  onChange,
  readOnly,
  problem,
}: {
  experiment: TExperimentDraft;
  control: TControl;
  onChange: (experiment: TExperimentDraft) => void;
  readOnly: boolean;
  /** The step's problem with the test, once the user tried to move on: each variant's own show too. */
  problem: string | undefined;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const templates = useQuery(templateListQuery({ search, sort: '-updated_at', page: 1 }));
  const templateOptions = (templates.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }));
  const problems = problem ? variantProblems(experiment) : [];
  const text = (problem: TProblem | undefined) => (problem ? t(problem.key, problem.values) : undefined);
  const set = (next: Partial<TExperimentDraft>) => onChange({ ...experiment, ...next });
  const setVariant = (index: number, next: Partial<TVariantDraft>) =>
    set({ variants: experiment.variants.map((v, i) => (i === index ? { ...v, ...next } : v)) });
  const count = experiment.variants.length + 1;
  // A new variant starts as a copy of A's texts, to be changed where it should differ.
  const add = () =>
    set({
      variants: [
        ...experiment.variants,
        { subject: control.subject, preHeader: control.preHeader, senderName: '', templateId: null },
      ],
    });

  return (
    <Paper withBorder radius="md" p="md" data-testid="experiment-editor">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('experiments.editor.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('experiments.editor.intro')}
          </Text>
        </div>
        {problem && (
          <Text size="sm" c="red" role="alert" data-testid="experiment-problem">
            {problem}
          </Text>
        )}
        {experiment.variants.length > 0 && (
          <Box style={{ overflowX: 'auto' }}>
            <Group align="flex-start" wrap="nowrap" gap="md">
              <Column title={t('experiments.editor.control')} testId="variant-A">
                <Text size="xs" c="dimmed">
                  {t('experiments.editor.control_hint')}
                </Text>
                <VariantPreview
                  variantKey="A"
                  subject={control.subject}
                  preHeader={control.preHeader}
                  senderName={control.senderName}
                  templateId={control.templateId}
                />
              </Column>
              {experiment.variants.map((variant, index) => {
                const key = ALTERNATIVE_KEYS[index]!;
                const own = problems[index] ?? {};
                return (
                  <Column key={key} title={t('experiments.editor.variant', { key })} testId={`variant-${key}`}>
                    <TextInput
                      label={t('experiments.editor.subject')}
                      required
                      maxLength={CAMPAIGN_SUBJECT_MAX}
                      value={variant.subject}
                      readOnly={readOnly}
                      error={text(own.subject)}
                      onChange={(e) => setVariant(index, { subject: e.currentTarget.value })}
                      data-testid={`variant-${key}-subject`}
                    />
                    <TextInput
                      label={t('experiments.editor.pre_header')}
                      maxLength={CAMPAIGN_PRE_HEADER_MAX}
                      value={variant.preHeader}
                      readOnly={readOnly}
                      error={text(own.preHeader)}
                      onChange={(e) => setVariant(index, { preHeader: e.currentTarget.value })}
                      data-testid={`variant-${key}-pre-header`}
                    />
                    <TextInput
                      label={t('experiments.editor.sender_name')}
                      placeholder={control.senderName ?? t('experiments.editor.same_as_a')}
                      description={t('experiments.editor.blank_same_as_a')}
                      maxLength={VARIANT_SENDER_NAME_MAX}
                      value={variant.senderName}
                      readOnly={readOnly}
                      error={text(own.senderName)}
                      onChange={(e) => setVariant(index, { senderName: e.currentTarget.value })}
                      data-testid={`variant-${key}-sender-name`}
                    />
                    <Select
                      label={t('experiments.editor.template')}
                      data={[
                        { value: '', label: t('experiments.editor.same_as_a') },
                        ...templateOptions.filter((o) => o.value !== control.templateId),
                      ]}
                      value={variant.templateId ?? ''}
                      searchable
                      onSearchChange={setSearch}
                      readOnly={readOnly}
                      onChange={(value) => setVariant(index, { templateId: value || null })}
                      data-testid={`variant-${key}-template`}
                    />
                    <VariantPreview
                      variantKey={key}
                      subject={variant.subject}
                      preHeader={variant.preHeader}
                      senderName={variant.senderName.trim() || control.senderName}
                      templateId={variant.templateId ?? control.templateId}
                    />
                    {!readOnly && (
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        leftSection={<IconTrash size={14} />}
                        onClick={() => set({ variants: experiment.variants.filter((_, i) => i !== index) })}
                      >
                        {t('experiments.editor.remove_variant', { key })}
                      </Button>
                    )}
                  </Column>
                );
              })}
            </Group>
          </Box>
        )}
        {!readOnly && experiment.variants.length < EXPERIMENT_MAX_ALTERNATIVES && (
          <Group>
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add} data-testid="experiment-add">
              {t('experiments.editor.add_variant', { key: ALTERNATIVE_KEYS[experiment.variants.length] })}
            </Button>
          </Group>
        )}
        {experiment.variants.length > 0 && (
          <Stack gap="sm">
            <Group align="flex-start" gap="lg">
              <NumberInput
                label={t('experiments.editor.test_percent')}
                min={EXPERIMENT_TEST_PERCENT.min}
                max={EXPERIMENT_TEST_PERCENT.max}
                allowDecimal={false}
                suffix="%"
                value={experiment.testPercent}
                disabled={readOnly}
                onChange={(value) =>
                  set({ testPercent: typeof value === 'number' ? value : EXPERIMENT_TEST_PERCENT.default })
                }
                w={180}
                data-testid="experiment-test-percent"
              />
              <NumberInput
                label={t('experiments.editor.wait_hours')}
                min={EXPERIMENT_WAIT_HOURS.min}
                max={EXPERIMENT_WAIT_HOURS.max}
                allowDecimal={false}
                suffix={t('experiments.editor.hours_suffix')}
                value={experiment.waitHours}
                disabled={readOnly}
                onChange={(value) =>
                  set({ waitHours: typeof value === 'number' ? value : EXPERIMENT_WAIT_HOURS.default })
                }
                w={180}
                data-testid="experiment-wait-hours"
              />
            </Group>
            <Text size="xs" c="dimmed" data-testid="experiment-split">
              {t('experiments.editor.split', {
                percent: experiment.testPercent,
                variants: count,
                each: Math.floor((experiment.testPercent / count) * 10) / 10,
                hours: experiment.waitHours,
              })}
            </Text>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('experiments.editor.metric')}
              </Text>
              <SegmentedControl
                value={experiment.metric}
                disabled={readOnly}
                onChange={(value) => set({ metric: value as TExperimentMetric })}
                data={EXPERIMENT_METRICS.map((m) => ({ value: m, label: t(`experiments.metrics.${m}`) }))}
                data-testid="experiment-metric"
                w="fit-content"
              />
            </Stack>
            {experiment.metric === 'opens' && (
              <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="experiment-opens-warning">
                {t('experiments.opens_warning')}
              </Alert>
            )}
          </Stack>
        )}
        <HoldoutSetting
          value={experiment.holdoutPercent}
          onChange={(holdoutPercent) => set({ holdoutPercent })}
          readOnly={readOnly}
          subject="campaign"
        />
      </Stack>
    </Paper>
  );
}

function Column({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="sm" w={COLUMN_WIDTH} miw={COLUMN_WIDTH} data-testid={testId}>
      <Stack gap="xs">
        <Text fw={700}>{title}</Text>
        {children}
      </Stack>
    </Paper>
  );
}

/** A variant as the guest sees it: the inbox line (sender, subject, pre-header), then the mail. */
function VariantPreview({
  variantKey,
  subject,
  preHeader,
  senderName,
  templateId,
}: {
  variantKey: string;
  subject: string;
  preHeader: string;
  senderName: string | null;
  templateId: string | null;
}) {
  const { t } = useTranslation();
  const chosen = useQuery(chosenTemplateQuery(templateId));
  const template = chosen.data?.id === templateId ? chosen.data : undefined;
  const preview = useQuery({
    ...savedPreviewQuery(template?.id ?? '', template?.version ?? 0, template?.defaultLanguage ?? 'ja'),
    enabled: Boolean(template),
  });
  return (
    <Stack gap={6} data-testid={`variant-${variantKey}-preview`}>
      <Paper bg="gray.0" p="xs" radius="sm">
        <Text size="xs" fw={600} truncate>
          {senderName ?? '-'}
        </Text>
        <Text size="sm" fw={700} truncate data-testid={`variant-${variantKey}-inbox-subject`}>
          {subject || t('experiments.editor.no_subject')}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {preHeader}
        </Text>
      </Paper>
      {!templateId ? (
        <Text size="xs" c="dimmed">
          {t('experiments.editor.no_template')}
        </Text>
      ) : preview.data ? (
        <Box
          w={EMAIL_WIDTH * SCALE}
          h={PREVIEW_HEIGHT * SCALE}
          style={{ overflow: 'hidden', border: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Box style={{ transform: `scale(${SCALE})`, transformOrigin: 'top left' }}>
            <PreviewFrame
              html={preview.data.html}
              width={EMAIL_WIDTH}
              height={PREVIEW_HEIGHT}
              title={t('experiments.editor.preview_of', { key: variantKey })}
              thumbnail
            />
          </Box>
        </Box>
      ) : (
        <Center h={120}>
          <Loader size="sm" />
        </Center>
      )}
    </Stack>
  );
}
