import { Box, Button, Center, Group, Loader, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EMAIL_WIDTH, type TTemplateLanguage } from '@yado/contracts/templates';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { showSnackbar } from '../../ui/components/Snackbar';
import { PreviewFrame } from '../../templates/components/PreviewFrame';
import {
  createTemplate,
  savedPreviewQuery,
  templateListQuery,
  TEMPLATES_QUERY_KEY,
} from '../../templates/api/templatesCalls';
import { ExperimentEditor } from '../../experiments/components/ExperimentEditor';
import { chosenTemplateQuery } from '../api/campaignsCalls';
import type { TProblem } from '../campaignDraft';
import type { TStepProps } from './stepProps';

export interface TContentStepProps extends TStepProps {
  /** The flex_builder flag and templates.create: a new template can be built from here. */
  canBuild: boolean;
  canEditTemplates: boolean;
  /** The sender name of the campaign email settings: A's, and the variants' unless they set their own. */
  senderName: string | null;
}

const PREVIEW_HEIGHT = 640;

/**
 * A saved template, previewed as the server renders it (the console never renders a mail
 * itself). Where the flex builder is on, a template is built in it, in a tab of its own, and
 * chosen here once saved.
 */
export function ContentStep({
  draft,
  change,
  problems,
  readOnly,
  canBuild,
  canEditTemplates,
  senderName,
}: TContentStepProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const text = (problem: TProblem | undefined) => (problem ? t(problem.key, problem.values) : undefined);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const templates = useQuery(templateListQuery({ search, sort: '-updated_at', page: 1 }));
  const items = templates.data?.items ?? [];
  const chosen = useQuery(chosenTemplateQuery(draft.templateId));
  const template = chosen.data?.id === draft.templateId ? chosen.data : undefined;
  // A template is chosen and on its way: what it brings is shown at its size meanwhile.
  const loadingChosen = Boolean(draft.templateId) && chosen.isPending;
  const [language, setLanguage] = useState<TTemplateLanguage | null>(null);
  const shown = language && template?.languages.includes(language) ? language : (template?.defaultLanguage ?? 'ja');
  const preview = useQuery({
    ...savedPreviewQuery(template?.id ?? '', template?.version ?? 0, shown),
    enabled: Boolean(template),
  });
  const options = items.map((item) => ({ value: item.id, label: item.name }));
  if (template && !options.some((o) => o.value === template.id))
    options.unshift({ value: template.id, label: template.name });

  const build = async () => {
    setCreating(true);
    // The tab is opened within the click, before the call, so the browser does not block it.
    const tab = window.open('about:blank', '_blank');
    try {
      const created = await createTemplate({ name: draft.name.trim() || t('campaign.editor.new_title') });
      change({ templateId: created.id });
      await queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY });
      if (tab) tab.location.href = `/templates/${created.id}`;
    } catch (error) {
      tab?.close();
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setCreating(false);
    }
  };

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <Select
          label={t('campaign.content.template')}
          placeholder={t('campaign.content.choose_template')}
          data={options}
          value={draft.templateId}
          onChange={(templateId) => change({ templateId })}
          searchable
          onSearchChange={setSearch}
          readOnly={readOnly}
          error={text(problems.templateId)}
          nothingFoundMessage={templates.isFetching ? undefined : t('campaign.content.no_templates')}
          w={420}
          data-testid="campaign-template"
        />
        {/* Held in place while the chosen template loads: appearing later, it could wrap the row. */}
        {canEditTemplates && (template ? template.editable : loadingChosen) && (
          <Button
            variant="default"
            component="a"
            href={`/templates/${draft.templateId}`}
            loading={!template}
            target="_blank"
            rel="noopener"
            leftSection={<IconExternalLink size={16} />}
          >
            {t('campaign.content.open_builder')}
          </Button>
        )}
        {canBuild && !readOnly && (
          <Button variant="light" leftSection={<IconPlus size={16} />} loading={creating} onClick={() => void build()}>
            {t('campaign.content.new_in_builder')}
          </Button>
        )}
      </Group>
      {canBuild && (
        <Text size="xs" c="dimmed">
          {t('campaign.content.builder_hint')}
        </Text>
      )}
      {/* Shown at its full height from the start (the chosen template and its preview come a moment
          later), so what is below, the A/B test's buttons, does not move under the pointer. */}
      {(template || loadingChosen) && (
        <Paper withBorder radius="md" p="md">
          {/* As high with the language switch as without it (it comes with the template). */}
          <Group justify="space-between" mb="sm" h={32}>
            <Text fw={600}>{t('campaign.content.preview')}</Text>
            {template && template.languages.length > 1 && (
              <SegmentedControl
                size="xs"
                value={shown}
                onChange={(value) => setLanguage(value as TTemplateLanguage)}
                data={template.languages.map((l) => ({ value: l, label: t(`campaign.content.languages.${l}`) }))}
                aria-label={t('campaign.content.preview_language')}
              />
            )}
          </Group>
          {preview.isError ? (
            <Text c="red" size="sm" role="alert">
              {errorText(preview.error, t)}
            </Text>
          ) : preview.data && template ? (
            <Box style={{ overflowX: 'auto' }}>
              <PreviewFrame
                html={preview.data.html}
                width={EMAIL_WIDTH}
                height={PREVIEW_HEIGHT}
                title={t('campaign.content.preview_title', { name: template.name })}
                testId="campaign-preview"
              />
            </Box>
          ) : (
            <Center h={PREVIEW_HEIGHT}>
              <Loader size="sm" />
            </Center>
          )}
        </Paper>
      )}
      <ExperimentEditor
        experiment={draft.experiment}
        control={{ subject: draft.subject, preHeader: draft.preHeader, senderName, templateId: draft.templateId }}
        onChange={(experiment) => change({ experiment })}
        readOnly={readOnly}
        problem={text(problems.experiment)}
      />
    </Stack>
  );
}
