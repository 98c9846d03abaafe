import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stepper } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EDITABLE_STATUSES, type TCampaign, type TSchedule } from '@yado/contracts/campaigns';
import type { TCampaignEmailSettings } from '@yado/contracts/sending';
import {
  IconCalendarTime,
  IconChevronLeft,
  IconDeviceFloppy,
  IconExclamationMark,
  IconSend,
} from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { AreaPage } from '../../areas/pages/AreaPage';
import { segmentChoicesQuery } from '../../segmentation/api/segmentsCalls';
import { setupQuery } from '../../sending/api/sendingCalls';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { SaveStatus } from '../../ui/components/SaveStatus';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useAutosave } from '../../ui/hooks/useAutosave';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import {
  audienceQuery,
  campaignQuery,
  CAMPAIGNS_QUERY_KEY,
  chosenTemplateQuery,
  createCampaign,
  quietHoursQuery,
  saveCampaignAsDraft,
  scheduleCampaign,
  sendCampaignNow,
  updateCampaign,
} from '../api/campaignsCalls';
import {
  CAMPAIGN_STEPS,
  draftFromCampaign,
  emptyDraft,
  firstIncompleteStep,
  inputOf,
  isStepComplete,
  plannedScheduleOf,
  scheduleOf,
  stepProblems,
  type TCampaignDraft,
  type TCampaignStep,
} from '../campaignDraft';
import { ContentStep } from '../steps/ContentStep';
import { DetailsStep } from '../steps/DetailsStep';
import { RecipientsStep } from '../steps/RecipientsStep';
import { ReviewStep } from '../steps/ReviewStep';
import { ScheduleStep } from '../steps/ScheduleStep';
import { heldUntilText } from '../heldUntil';

const loading = (
  <Center py="xl">
    <Loader />
  </Center>
);

/** /campaign/new and /campaign/:id/edit: the campaign in five steps. */
export function CampaignEditorPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const me = useProfile();
  // A new campaign is for those who may create one; the others get the console's no-access page.
  const mayCreate = Boolean(id) || me.entitlements['campaign.create'];
  const setup = useQuery({ ...setupQuery, enabled: mayCreate });
  const campaign = useQuery(campaignQuery(id));
  // A reload (after another tab saved) starts the editor again from the stored campaign.
  const [reloads, setReloads] = useState(0);
  if (!mayCreate) return <AreaPage areaId="campaign" forbidden />;
  if (campaign.isError || setup.isError) {
    return (
      <Paper withBorder radius="md" p="xl">
        {/* The reason once: a campaign not found says "Page not found." (not twice), another failure its own text. */}
        <EmptyState readOnly title={errorText(campaign.error ?? setup.error, t)} description={null} />
      </Paper>
    );
  }
  if (!setup.data || (id && !campaign.data)) return loading;
  const step = CAMPAIGN_STEPS.indexOf(search.get('step') as TCampaignStep);
  return (
    <CampaignEditor
      key={`${id || 'new'}:${reloads}`}
      campaign={id ? (campaign.data ?? null) : null}
      settings={setup.data.settings}
      startStep={Math.max(0, step)}
      onReload={() =>
        void queryClient.refetchQueries({ queryKey: campaignQuery(id).queryKey }).then(() => setReloads((n) => n + 1))
      }
    />
  );
}

/** Whether the schedule on screen is the one the campaign is scheduled with. */
function sameSchedule(typed: TSchedule, stored: TCampaign['schedule']): boolean {
  if (!stored || typed.kind !== stored.kind) return false;
  return typed.kind === 'now' || (typed.localTime === stored.localTime && typed.timeZone === stored.timeZone);
}

interface TCampaignEditorProps {
  campaign: TCampaign | null;
  settings: TCampaignEmailSettings | null;
  startStep: number;
  onReload: () => void;
}

function CampaignEditor({ campaign, settings, startStep, onReload }: TCampaignEditorProps) {
  const { t } = useTranslation();
  const me = useProfile();
  const can = me.entitlements;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hostTimeZone = settings?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  // The sender is the campaign email settings' own; it is not chosen per campaign.
  const sender = settings?.canSend ? (settings.effective.senderEmail ?? null) : null;
  const [draft, setDraft] = useState<TCampaignDraft>(() => ({
    ...(campaign ? draftFromCampaign(campaign, hostTimeZone, sender) : emptyDraft(hostTimeZone, sender)),
    senderEmail: sender,
  }));
  const [active, setActive] = useState(startStep);
  // Problems show for a step once the user tried to leave it, or passed it by (a step clicked
  // further on, or the editor opened there): the stepper marks a step behind as done, so an
  // incomplete one must show red (the review's "complete the steps shown in red" says so).
  const [tried, setTried] = useState<ReadonlySet<TCampaignStep>>(() => new Set(CAMPAIGN_STEPS.slice(0, startStep)));
  // The campaign saved so far and its version (refs: a save queued behind the first creation must update it, not create another).
  const savedId = useRef<string | null>(campaign?.id ?? null);
  const version = useRef<string | null>(campaign?.updatedAt ?? null);
  const [revision, setRevision] = useState(0);
  const [busy, setBusy] = useState<'save' | 'schedule' | 'send' | null>(null);
  const [confirmingSend, setConfirmingSend] = useState(false);
  const segments = useQuery(segmentChoicesQuery(''));
  const audience = useQuery(
    audienceQuery({ segmentIds: draft.segmentIds, excludeSegmentIds: draft.excludeSegmentIds }),
  );
  const template = useQuery(chosenTemplateQuery(draft.templateId));
  // With a holdout, "Send now" names who will be mailed: a saved campaign's server counts the guests
  // its holdout hash draws (the seed is its id), the others are told about how many (the share).
  const holdoutPercent = draft.experiment.holdoutPercent;
  const mailed = useQuery({
    ...audienceQuery({
      segmentIds: draft.segmentIds,
      excludeSegmentIds: draft.excludeSegmentIds,
      ...(campaign && holdoutPercent !== null ? { holdout: { campaignId: campaign.id, percent: holdoutPercent } } : {}),
    }),
    enabled: confirmingSend && Boolean(campaign) && holdoutPercent !== null && draft.segmentIds.length > 0,
  });

  const status = campaign?.status ?? 'draft';
  const statusAllows = (EDITABLE_STATUSES as readonly string[]).includes(status);
  const mayChange = campaign ? can['campaign.update'] && campaign.editable : can['campaign.create'];
  const readOnly = !mayChange || !statusAllows;
  const now = Date.now();
  const stepAt = (index: number) => CAMPAIGN_STEPS[index] as TCampaignStep;
  const problemsOf = (step: TCampaignStep) => (tried.has(step) ? stepProblems(draft, step, now) : {});
  const change = (next: Partial<TCampaignDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setRevision((n) => n + 1);
  };

  // Saved a second after each change, as the template builder does, so a step's choices stay
  // whichever way the user moves; a draft keeps the time typed as planned. A scheduled campaign too,
  // but only while what it sends is complete (each save checks its schedule again, and a half-typed
  // subject is never what goes out); its time changes only when the user schedules it again (said
  // beside the time: `reschedulePending`).
  const sendable = (['details', 'recipients', 'content'] as const).every((step) => isStepComplete(draft, step, now));
  const autosaves =
    !readOnly && draft.name.trim() !== '' && (status === 'draft' || (status === 'scheduled' && sendable));
  const autosave = useAutosave<Record<string, never>>({
    revision,
    enabled: autosaves,
    isStale: (error) => isApiError(error) && error.code === 'campaign_stale',
    save: async () => {
      const saved = savedId.current
        ? await updateCampaign(savedId.current, {
            ...inputOf(draft, { draft: status === 'draft' }),
            updatedAt: version.current ?? undefined,
          })
        : await createCampaign(inputOf(draft, { draft: true }));
      version.current = saved.updatedAt;
      queryClient.setQueryData(campaignQuery(saved.id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: [...CAMPAIGNS_QUERY_KEY, 'list'] });
      if (!savedId.current) {
        savedId.current = saved.id;
        // The address names the campaign from now on, so a reload edits it instead of a copy.
        window.history.replaceState(window.history.state, '', `/campaign/${saved.id}/edit`);
      }
    },
  });
  // A scheduled campaign whose time the user changed: it still goes out as scheduled until they schedule it again.
  const scheduledAt = status === 'scheduled' ? (campaign?.sendAt ?? null) : null;
  const reschedulePending =
    !readOnly && scheduledAt !== null && !sameSchedule(scheduleOf(draft), campaign?.schedule ?? null);
  // Leaving before the last change is saved saves it first (the link back, the sidebar), as the
  // autosave would; only a change that cannot be saved (no name, a scheduled campaign left
  // incomplete, refused, changed elsewhere) asks, and is then truly lost. So does a scheduled
  // campaign's new time: no autosave applies it, only scheduling again does.
  const leaveGuard = useLeaveGuard(() => !readOnly && (autosave.isDirty() || reschedulePending), {
    saveFirst: async () => {
      if (!autosaves || autosave.state === 'stale') return false;
      try {
        await autosave.flush();
        return !autosave.isDirty() && !reschedulePending;
      } catch {
        return false;
      }
    },
  });
  // "Send now" in the quiet hours is held until they end: the review, the confirmation and the toast say until when.
  const quietHours = useQuery(
    quietHoursQuery(!readOnly && draft.scheduleKind === 'now' && stepAt(active) === 'review' ? { kind: 'now' } : null),
  );
  const heldUntil = draft.scheduleKind === 'now' ? heldUntilText(quietHours.data) : null;

  /** Saves what is not saved yet; the campaign's id, or null when the server refused (said in a snackbar). */
  const save = async (): Promise<string | null> => {
    if (readOnly) return savedId.current;
    if (!draft.name.trim()) {
      setTried((s) => new Set(s).add('details'));
      setActive(0);
      return null;
    }
    if (autosave.state === 'stale') {
      showSnackbar({ status: 'failed', message: t('errors.campaign_stale') });
      return null;
    }
    try {
      // A campaign never saved is created even unchanged: a test send and the schedule need its id.
      await autosave.flush(savedId.current ? undefined : {});
      return savedId.current;
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
      return null;
    }
  };

  const goTo = async (index: number) => {
    const current = stepAt(active);
    if (index > active && !readOnly) {
      setTried((s) => new Set(s).add(current));
      if (Object.keys(stepProblems(draft, current, Date.now())).length > 0) return;
      if (!(await save())) return;
      setTried((s) => new Set([...s, ...CAMPAIGN_STEPS.slice(active, index)]));
    } else if (!readOnly && autosave.isDirty() && draft.name.trim()) {
      // Back (or a step clicked) keeps what was chosen: saved on the way.
      if (!(await save())) return;
    }
    setActive(index);
  };

  const finish = async (how: 'save' | 'schedule' | 'send') => {
    if (how !== 'save') {
      setTried(new Set(CAMPAIGN_STEPS));
      const missing = firstIncompleteStep(draft, Date.now());
      if (missing) {
        setActive(CAMPAIGN_STEPS.indexOf(missing));
        return;
      }
    }
    setBusy(how);
    try {
      const id = await save();
      if (!id) return;
      if (how === 'save') {
        if (status === 'scheduled') {
          // Taken back to draft, it keeps the time on screen as planned: the server keeps the one it
          // was scheduled for, so only a new one is saved after.
          const drafted = await saveCampaignAsDraft(id);
          const planned = plannedScheduleOf(draft);
          if (planned && !sameSchedule(planned, campaign?.schedule ?? null))
            await updateCampaign(id, { plannedSchedule: planned, updatedAt: drafted.updatedAt });
        }
        showSnackbar({
          status: 'success',
          message: t(status === 'scheduled' ? 'campaign.done.drafted' : 'campaign.done.saved'),
        });
        await navigate('/campaign');
      } else if (how === 'schedule') {
        await scheduleCampaign(id, scheduleOf(draft));
        showSnackbar({ status: 'success', message: t('campaign.done.scheduled') });
        await navigate('/campaign');
      } else {
        await sendCampaignNow(id);
        showSnackbar({
          status: 'success',
          message: heldUntil ? t('campaign.done.sending_held', { date: heldUntil }) : t('campaign.done.sending'),
        });
        await navigate(`/campaign/${id}`);
      }
      await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_QUERY_KEY });
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(null);
      setConfirmingSend(false);
    }
  };

  const segmentNames = (ids: string[]) =>
    ids.map((sid) => segments.data?.find((s) => s.id === sid)?.name ?? sid).join(t('campaign.list_separator'));
  const templateName = template.data?.name ?? campaign?.templateName ?? null;
  const stepProps = { draft, change, readOnly };
  const hasProblems = (step: TCampaignStep) => Object.keys(problemsOf(step)).length > 0;
  const last = CAMPAIGN_STEPS.length - 1;

  return (
    <>
      <PageHeader
        title={t(campaign ? 'campaign.editor.edit_title' : 'campaign.editor.new_title')}
        actions={
          <Group gap="md" wrap="nowrap">
            {!readOnly && (status === 'draft' || status === 'scheduled') && (
              <SaveStatus
                state={autosave.state}
                onRetry={() => void save()}
                onReload={onReload}
                fresh={!savedId.current}
                waiting={draft.name.trim() ? null : t('campaign.editor.saved_once_named')}
              />
            )}
            <Anchor component={Link} to="/campaign" size="sm">
              <Group gap={4}>
                <IconChevronLeft size={16} />
                {t('campaign.actions.back_to_list')}
              </Group>
            </Anchor>
          </Group>
        }
      />
      {reschedulePending && scheduledAt && (stepAt(active) === 'schedule' || stepAt(active) === 'review') && (
        <Alert color="blue" mb="md" icon={<IconCalendarTime size={18} />} data-testid="campaign-reschedule-pending">
          {t('campaign.editor.reschedule_pending', {
            date: `${formatDate(scheduledAt, currentLanguage(), { withTime: true, timeZone: campaign?.schedule?.timeZone ?? hostTimeZone })} (${campaign?.schedule?.timeZone ?? hostTimeZone})`,
            action: t(draft.scheduleKind === 'at' ? 'campaign.editor.schedule' : 'campaign.editor.send_now'),
          })}
        </Alert>
      )}
      {readOnly && (
        <Alert color="gray" mb="md" data-testid="campaign-read-only">
          {mayChange
            ? t('campaign.editor.not_editable', { status: t(`campaign.status.${status}`) })
            : t('campaign.editor.read_only')}
        </Alert>
      )}
      <Paper withBorder radius="md" p="lg">
        <Stepper active={active} onStepClick={(index) => void goTo(index)} size="sm" mb="xl">
          {CAMPAIGN_STEPS.map((step) => (
            <Stepper.Step
              key={step}
              label={t(`campaign.editor.steps.${step}`)}
              description={t(`campaign.editor.step_descriptions.${step}`)}
              color={hasProblems(step) ? 'red' : undefined}
              // A step behind with problems is not done: no tick.
              completedIcon={hasProblems(step) ? <IconExclamationMark size={18} /> : undefined}
              data-testid={`campaign-step-${step}`}
            />
          ))}
        </Stepper>
        {stepAt(active) === 'details' && (
          <DetailsStep
            {...stepProps}
            problems={problemsOf('details')}
            settings={settings}
            canManageSettings={can['settings.manage_campaign_email']}
          />
        )}
        {stepAt(active) === 'recipients' && (
          <RecipientsStep
            {...stepProps}
            problems={problemsOf('recipients')}
            canCreateSegments={can['segmentation.create']}
            frequencyCap={
              settings?.effective.frequencyCapCount && settings.effective.frequencyCapDays
                ? { count: settings.effective.frequencyCapCount, days: settings.effective.frequencyCapDays }
                : null
            }
          />
        )}
        {stepAt(active) === 'content' && (
          <ContentStep
            {...stepProps}
            problems={problemsOf('content')}
            canBuild={me.features.flex_builder && can['templates.create']}
            canEditTemplates={can['templates.update']}
            senderName={settings?.effective.senderName ?? null}
          />
        )}
        {stepAt(active) === 'schedule' && (
          <ScheduleStep
            {...stepProps}
            problems={problemsOf('schedule')}
            hostTimeZone={hostTimeZone}
            canManageSettings={can['settings.manage_campaign_email']}
          />
        )}
        {stepAt(active) === 'review' && (
          <ReviewStep
            draft={draft}
            sender={draft.senderEmail}
            segmentNames={segmentNames}
            templateName={templateName}
            recipients={audience.data?.recipients ?? null}
            heldUntil={heldUntil}
            incomplete={firstIncompleteStep(draft, now) !== null}
            save={save}
            canTest={!readOnly}
            defaultEmail={me.email}
            templateLanguages={
              template.data
                ? { languages: template.data.languages, defaultLanguage: template.data.defaultLanguage }
                : null
            }
          />
        )}
        <Group justify="space-between" mt="xl">
          <Button
            variant="default"
            disabled={active === 0}
            onClick={() => void goTo(active - 1)}
            data-testid="campaign-back"
          >
            {t('campaign.editor.back')}
          </Button>
          <Group gap="sm">
            {!readOnly && (
              <Button
                variant="default"
                leftSection={<IconDeviceFloppy size={16} />}
                loading={busy === 'save'}
                onClick={() => void finish('save')}
                data-testid="campaign-save-draft"
              >
                {t('campaign.editor.save_draft')}
              </Button>
            )}
            {active < last ? (
              <Button onClick={() => void goTo(active + 1)} data-testid="campaign-next">
                {t('campaign.editor.next')}
              </Button>
            ) : (
              !readOnly &&
              (draft.scheduleKind === 'at' ? (
                <Button
                  leftSection={<IconCalendarTime size={16} />}
                  loading={busy === 'schedule'}
                  onClick={() => void finish('schedule')}
                  data-testid="campaign-schedule"
                >
                  {t('campaign.editor.schedule')}
                </Button>
              ) : (
                <Button
                  leftSection={<IconSend size={16} />}
                  onClick={() => {
                    setTried(new Set(CAMPAIGN_STEPS));
                    const missing = firstIncompleteStep(draft, Date.now());
                    if (missing) {
                      setActive(CAMPAIGN_STEPS.indexOf(missing));
                    } else {
                      // Asked again as the user confirms: the quiet hours may have begun or ended meanwhile.
                      void quietHours.refetch();
                      setConfirmingSend(true);
                    }
                  }}
                  data-testid="campaign-send-now"
                >
                  {t('campaign.editor.send_now')}
                </Button>
              ))
            )}
          </Group>
        </Group>
      </Paper>
      <ConfirmDialog
        opened={confirmingSend}
        title={t('campaign.confirm.send_now_title')}
        message={
          <span data-testid="campaign-send-now-message">
            {holdoutPercent === null && audience.data
              ? t(heldUntil ? 'campaign.confirm.send_now_held_count' : 'campaign.confirm.send_now_count', {
                  name: draft.name,
                  guests: audience.data.recipients.toLocaleString(),
                  date: heldUntil,
                })
              : holdoutPercent !== null && mailed.data?.heldOut !== undefined && !mailed.isPlaceholderData
                ? t(
                    heldUntil
                      ? 'campaign.confirm.send_now_held_holdout_count'
                      : 'campaign.confirm.send_now_holdout_count',
                    {
                      name: draft.name,
                      guests: mailed.data.recipients.toLocaleString(),
                      heldOut: mailed.data.heldOut.toLocaleString(),
                      date: heldUntil,
                    },
                  )
                : holdoutPercent !== null && audience.data
                  ? t(
                      heldUntil
                        ? 'campaign.confirm.send_now_held_holdout_about'
                        : 'campaign.confirm.send_now_holdout_about',
                      {
                        name: draft.name,
                        guests: Math.round((audience.data.recipients * (100 - holdoutPercent)) / 100).toLocaleString(),
                        percent: holdoutPercent,
                        date: heldUntil,
                      },
                    )
                  : t(heldUntil ? 'campaign.confirm.send_now_held' : 'campaign.confirm.send_now', {
                      name: draft.name,
                      date: heldUntil,
                    })}
          </span>
        }
        confirmLabel={t('campaign.actions.send_now')}
        cancelLabel={t('campaign.confirm.keep')}
        loading={busy === 'send'}
        onClose={() => setConfirmingSend(false)}
        onConfirm={() => void finish('send')}
      />
      {leaveGuard}
    </>
  );
}
