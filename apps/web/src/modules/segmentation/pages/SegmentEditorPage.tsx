import { Anchor, Button, Group, Loader, Paper, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SEGMENT_DESCRIPTION_MAX, SEGMENT_NAME_MAX, type TSegment, type TSegmentType } from '@yado/contracts/segments';
import { useReducer, useRef, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import { createSegment, SEGMENTS_QUERY_KEY, segmentQuery, updateSegment } from '../api/segmentsCalls';
import { FilterEditor } from '../components/FilterEditor';
import { FilterSummary } from '../components/FilterSummary';
import { checkDraft, filterDraftReducer, marksFromError, newFilter, withIds, type TDraftAction } from '../filterDraft';

const LIST_PATH = '/segmentation';

/** Create (/segmentation/new) or edit (/segmentation/:id/edit) a segment. */
export function SegmentEditorPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const me = useProfile();
  const segment = useQuery({ ...segmentQuery(id ?? ''), enabled: Boolean(id) });
  const allowed = id ? me.entitlements['segmentation.update'] : me.entitlements['segmentation.create'];
  if (!allowed || (segment.data && !segment.data.editable)) {
    return (
      <>
        <PageHeader title={t(id ? 'segmentation.form.edit_title' : 'segmentation.form.create_title')} />
        <EmptyState readOnly title={t('segmentation.read_only')} description={t('errors.forbidden')} />
      </>
    );
  }
  if (id && segment.isPending) return <Loader size="sm" />;
  if (id && segment.isError) {
    return (
      <Text c="red" role="alert">
        {errorText(segment.error, t)}
      </Text>
    );
  }
  return <SegmentForm key={segment.data?.id ?? 'new'} segment={segment.data} />;
}

function SegmentForm({ segment }: { segment?: TSegment }) {
  const { t } = useTranslation();
  const me = useProfile();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dynamicAllowed = me.features.dynamic_segmentation;
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [type, setType] = useState<TSegmentType>(segment?.type ?? (dynamicAllowed ? 'dynamic' : 'static'));
  const [initialFilter] = useState(() =>
    segment?.type === 'dynamic' && segment.filter ? withIds(segment.filter) : newFilter(),
  );
  const [filter, dispatchFilter] = useReducer(filterDraftReducer, initialFilter);
  const [attempted, setAttempted] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const check = checkDraft(filter);
  const dynamic = type === 'dynamic';
  const back = segment ? `${LIST_PATH}/${segment.id}` : LIST_PATH;
  const savedRef = useRef(false);
  const leaveGuard = useLeaveGuard(
    () =>
      !savedRef.current &&
      (name !== (segment?.name ?? '') ||
        description !== (segment?.description ?? '') ||
        (!segment && type !== (dynamicAllowed ? 'dynamic' : 'static')) ||
        JSON.stringify(filter) !== JSON.stringify(initialFilter)),
  );

  const dispatch: Dispatch<TDraftAction> = (action) => {
    setServerError(null);
    dispatchFilter(action);
  };

  const save = async () => {
    setAttempted(true);
    const missingName = name.trim() === '';
    setNameError(missingName ? t('errors.field_required') : null);
    if (missingName || (dynamic && !check.complete)) return;
    setSaving(true);
    try {
      // With dynamic segments turned off, a dynamic one keeps its filter as saved (the server refuses a change).
      const kept = !dynamicAllowed && segment?.filter ? segment.filter : filter;
      const input = { name: name.trim(), description: description.trim(), filter: dynamic ? kept : null };
      const saved = segment ? await updateSegment(segment.id, input) : await createSegment({ ...input, type });
      await queryClient.invalidateQueries({ queryKey: SEGMENTS_QUERY_KEY });
      showSnackbar({
        status: 'success',
        message: t(segment ? 'segmentation.done.saved' : 'segmentation.done.created'),
      });
      savedRef.current = true;
      void navigate(`${LIST_PATH}/${saved.id}`);
    } catch (error) {
      if (marksFromError(error)) {
        setServerError(error);
      } else {
        const keys = fieldErrorKeys(error);
        if (isApiError(error) && error.code === 'segment_name_taken') setNameError(t('errors.segment_name_taken'));
        else if (keys.name) setNameError(t(keys.name));
        else showSnackbar({ status: 'failed', message: errorText(error, t) });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      {leaveGuard}
      <Anchor component={Link} to={back} size="sm">
        {t(segment ? 'segmentation.actions.back_to_segment' : 'segmentation.actions.back_to_list')}
      </Anchor>
      <PageHeader title={t(segment ? 'segmentation.form.edit_title' : 'segmentation.form.create_title')} />
      <Stack gap="md" data-testid="segment-form">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm" maw={640}>
            <TextInput
              label={t('segmentation.form.name')}
              name="name"
              required
              maxLength={SEGMENT_NAME_MAX}
              value={name}
              error={nameError}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setNameError(null);
              }}
            />
            <Textarea
              label={t('segmentation.form.description')}
              name="description"
              maxLength={SEGMENT_DESCRIPTION_MAX}
              autosize
              minRows={2}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            <Radio.Group
              label={t('segmentation.form.type')}
              value={type}
              onChange={(v) => setType(v as TSegmentType)}
              description={segment ? t('segmentation.form.type_fixed') : undefined}
            >
              <Stack gap={6} mt={6}>
                {(['dynamic', 'static'] as const).map((option) => (
                  <Radio
                    key={option}
                    value={option}
                    disabled={Boolean(segment) || (option === 'dynamic' && !dynamicAllowed)}
                    label={t(`segmentation.types.${option}`)}
                    description={t(`segmentation.type_help.${option}`)}
                    data-testid={`type-${option}`}
                  />
                ))}
              </Stack>
            </Radio.Group>
          </Stack>
        </Paper>
        {dynamic && !dynamicAllowed && segment?.filter ? (
          <Paper withBorder radius="md" p="md" data-testid="filter-locked">
            <Text size="sm" c="dimmed" mb="sm">
              {t('errors.dynamic_segmentation_off')}
            </Text>
            <FilterSummary filter={segment.filter} />
          </Paper>
        ) : dynamic ? (
          <Paper withBorder radius="md" p="md">
            <Text fw={600} mb="sm">
              {t('segmentation.builder.title')}
            </Text>
            <FilterEditor
              filter={filter}
              dispatch={dispatch}
              check={check}
              serverError={serverError}
              attempted={attempted}
            />
          </Paper>
        ) : (
          !segment && (
            <Text size="sm" c="dimmed">
              {t('segmentation.form.static_next')}
            </Text>
          )
        )}
        <Group justify="flex-end">
          <Button variant="default" component={Link} to={back}>
            {t('segmentation.actions.cancel')}
          </Button>
          <Button loading={saving} onClick={() => void save()} data-testid="segment-save">
            {t('segmentation.actions.save')}
          </Button>
        </Group>
      </Stack>
    </>
  );
}
