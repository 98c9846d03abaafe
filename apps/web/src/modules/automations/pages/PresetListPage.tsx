import {
  ActionIcon,
  Button,
  Card,
  ColorSwatch,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PRESET_COLOURS, PRESET_NAME_MAX, SCENARIO_DESCRIPTION_MAX, type TPreset } from '@yado/contracts/scenarios';
import { IconCheck, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { isApiError } from '../../../lib/http/ApiError';
import { useProfile } from '../../shell/hooks/useProfile';
import { BrandDataAction, useAtPlatform } from '../../ui/components/BrandDataAction';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { showSnackbar } from '../../ui/components/Snackbar';
import {
  createPreset,
  deletePreset,
  PRESETS_QUERY_KEY,
  presetListQuery,
  scenarioFromPreset,
  SCENARIOS_QUERY_KEY,
} from '../api/scenariosCalls';
import { editorPath } from '../hooks/useScenarioActions';

type TColour = (typeof PRESET_COLOURS)[number];

function CreatePresetDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [emoji, setEmoji] = useState('✉️');
  const [colour, setColour] = useState<TColour>('blue');
  const [problem, setProblem] = useState<{ field: string | null; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setName('');
    setDescription('');
    setEmoji('✉️');
    setColour('blue');
    setProblem(null);
  };
  const cancel = () => {
    reset();
    onClose();
  };
  const save = async () => {
    if (!name.trim()) {
      setProblem({ field: 'name', text: t('validation.required') });
      return;
    }
    setBusy(true);
    try {
      const made = await createPreset({ name, description, emoji: emoji.trim() || '✉️', colour });
      showSnackbar({ status: 'success', message: t('automations.preset.created', { name: made.name }) });
      await queryClient.invalidateQueries({ queryKey: PRESETS_QUERY_KEY });
      cancel();
    } catch (error) {
      const field = isApiError(error) && error.fields ? (Object.keys(error.fields)[0] ?? null) : null;
      setProblem({ field, text: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (field: string) => (problem?.field === field ? problem.text : undefined);

  return (
    <Modal opened={opened} onClose={cancel} title={t('automations.preset.create_title')} centered>
      <Stack gap="md">
        <TextInput
          label={t('automations.preset.fields.name')}
          required
          maxLength={PRESET_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldError('name')}
          data-autofocus
        />
        <Textarea
          label={t('automations.preset.fields.description')}
          maxLength={SCENARIO_DESCRIPTION_MAX}
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fieldError('description')}
        />
        <TextInput
          label={t('automations.preset.fields.emoji')}
          maxLength={16}
          w={120}
          value={emoji}
          onChange={(e) => setEmoji(e.currentTarget.value)}
          error={fieldError('emoji')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('automations.preset.fields.color')}
          </Text>
          <Group gap={6} role="radiogroup" aria-label={t('automations.preset.fields.color')}>
            {PRESET_COLOURS.map((c) => (
              <Tooltip key={c} label={t(`automations.preset.colors.${c}`)}>
                <ColorSwatch
                  component="button"
                  type="button"
                  role="radio"
                  aria-checked={colour === c}
                  aria-label={t(`automations.preset.colors.${c}`)}
                  color={`var(--mantine-color-${c}-5)`}
                  onClick={() => setColour(c)}
                  style={{ cursor: 'pointer', color: 'white' }}
                >
                  {colour === c && <IconCheck size={14} />}
                </ColorSwatch>
              </Tooltip>
            ))}
          </Group>
        </Stack>
        {problem && problem.field === null && (
          <Text c="red" size="sm" role="alert">
            {problem.text}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={cancel}>
            {t('automations.preset.cancel')}
          </Button>
          <Button loading={busy} onClick={() => void save()}>
            {t('automations.preset.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Spec section 2, "Presets": cards with emoji and colour; one click makes a draft scenario to adjust. */
export function PresetListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const can = useProfile().entitlements;
  const atPlatform = useAtPlatform();
  // A built-in preset speaks the console's language (the server has its texts); a host's own shows what was typed.
  const language = currentLanguage();
  const presets = useQuery(presetListQuery(language));
  const [creating, setCreating] = useState(false);
  const [using, setUsing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TPreset | null>(null);
  const [busy, setBusy] = useState(false);

  const use = async (preset: TPreset) => {
    setUsing(preset.id);
    try {
      const made = await scenarioFromPreset(preset.id, language);
      await queryClient.invalidateQueries({ queryKey: SCENARIOS_QUERY_KEY });
      showSnackbar({ status: 'success', message: t('automations.done.created_from_preset', { name: preset.name }) });
      void navigate(editorPath(made.id));
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setUsing(null);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deletePreset(deleting.id);
      showSnackbar({ status: 'success', message: t('automations.preset.deleted', { name: deleting.name }) });
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: PRESETS_QUERY_KEY });
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  const items = presets.data?.items ?? [];
  return (
    <>
      <PageHeader
        title={t('nav.preset')}
        description={t('automations.preset.description')}
        actions={
          can['presets.create'] && (
            <BrandDataAction>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                {t('automations.preset.create')}
              </Button>
            </BrandDataAction>
          )
        }
      />
      {presets.isError ? (
        <Text c="red" role="alert">
          {errorText(presets.error, t)}
        </Text>
      ) : presets.data && items.length === 0 ? (
        <EmptyState readOnly={!can['presets.create']} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {items.map((preset) => (
            <Card
              key={preset.id}
              withBorder
              radius="md"
              padding="lg"
              data-testid="preset-card"
              data-preset={preset.builtIn ?? preset.id}
              style={{ borderTop: `4px solid var(--mantine-color-${preset.colour}-5)` }}
            >
              <Stack gap="sm" h="100%" justify="space-between">
                <Stack gap={6}>
                  <Group justify="space-between" align="flex-start">
                    <Text fz={32} lh={1} aria-hidden>
                      {preset.emoji}
                    </Text>
                    {preset.builtIn ? (
                      <Text size="xs" c="dimmed">
                        {t('automations.preset.built_in')}
                      </Text>
                    ) : (
                      preset.editable &&
                      can['presets.delete'] && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('automations.preset.delete')}
                          onClick={() => setDeleting(preset)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      )
                    )}
                  </Group>
                  <Text fw={600}>{preset.name}</Text>
                  <Text size="sm" c="dimmed">
                    {preset.description}
                  </Text>
                </Stack>
                {can['scenarios.create'] && (
                  <Button
                    variant="light"
                    color={preset.colour}
                    loading={using === preset.id}
                    // At the platform, disabled as the header's create is, under its hint.
                    disabled={atPlatform || (using !== null && using !== preset.id)}
                    onClick={() => void use(preset)}
                    data-testid="preset-use"
                  >
                    {t('automations.preset.use')}
                  </Button>
                )}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <CreatePresetDialog opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('automations.preset.delete_title')}
        message={deleting ? t('automations.preset.delete_message', { name: deleting.name }) : ''}
        confirmLabel={t('automations.preset.delete')}
        danger
        loading={busy}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </>
  );
}
