import { Alert, Anchor, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconMoon } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { quietHoursQuery } from '../api/campaignsCalls';
import { scheduleOf, type TProblem } from '../campaignDraft';
import { timeZoneChoices, wallClockToInstant } from '../zonedTime';
import type { TStepProps } from './stepProps';

export interface TScheduleStepProps extends TStepProps {
  hostTimeZone: string;
  /** Whether the user may change the quiet hours (the warning then links to the setting). */
  canManageSettings: boolean;
}

/** Now, or a date and time in a chosen zone; the server says when that falls in the quiet hours. */
export function ScheduleStep({
  draft,
  change,
  problems,
  readOnly,
  hostTimeZone,
  canManageSettings,
}: TScheduleStepProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const text = (problem: TProblem | undefined) => (problem ? t(problem.key, problem.values) : undefined);
  const zones = useMemo(
    () => timeZoneChoices(hostTimeZone, Intl.DateTimeFormat().resolvedOptions().timeZone),
    [hostTimeZone],
  );
  const instant =
    draft.scheduleKind === 'at' ? wallClockToInstant({ date: draft.date, time: draft.time }, draft.timeZone) : null;
  // Asked once typing pauses, and only for a time that is one.
  const [asked] = useDebouncedValue(draft.scheduleKind === 'now' || instant ? scheduleOf(draft) : null, 400);
  const quiet = useQuery(quietHoursQuery(asked));
  const check = quiet.data;

  return (
    <Stack gap="md" maw={640}>
      <SegmentedControl
        value={draft.scheduleKind}
        onChange={(value) => change({ scheduleKind: value as 'now' | 'at' })}
        readOnly={readOnly}
        data={[
          { value: 'now', label: t('campaign.schedule.now') },
          { value: 'at', label: t('campaign.schedule.later') },
        ]}
        aria-label={t('campaign.schedule.when')}
        data-testid="campaign-schedule-kind"
      />
      {draft.scheduleKind === 'at' ? (
        <>
          <Group align="flex-start" gap="sm">
            <TextInput
              type="date"
              label={t('campaign.schedule.date')}
              name="date"
              value={draft.date}
              readOnly={readOnly}
              error={text(problems.date)}
              onChange={(e) => change({ date: e.currentTarget.value })}
            />
            <TextInput
              type="time"
              label={t('campaign.schedule.time')}
              name="time"
              value={draft.time}
              readOnly={readOnly}
              onChange={(e) => change({ time: e.currentTarget.value })}
            />
            <Select
              label={t('campaign.schedule.time_zone')}
              data={zones}
              value={draft.timeZone}
              onChange={(timeZone) => timeZone && change({ timeZone })}
              searchable
              allowDeselect={false}
              readOnly={readOnly}
              w={260}
              data-testid="campaign-time-zone"
            />
          </Group>
          {instant && (
            <Text size="sm" c="dimmed" data-testid="campaign-send-at">
              {t('campaign.schedule.at', {
                date: `${formatDate(instant, language, { withTime: true, timeZone: draft.timeZone })} (${draft.timeZone})`,
              })}
            </Text>
          )}
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('campaign.schedule.now_summary')}
        </Text>
      )}
      {check?.inQuietHours && (
        <Alert color="yellow" icon={<IconMoon size={18} />} data-testid="campaign-quiet-hours" role="status">
          {t('campaign.schedule.quiet_hours', {
            start: check.quietHours.start,
            end: check.quietHours.end,
            timeZone: check.quietHours.timeZone,
          })}
          {check.deferredTo && (
            <Text size="sm" mt={4}>
              {t('campaign.schedule.deferred_to', {
                date: `${formatDate(check.deferredTo, language, { withTime: true, timeZone: check.quietHours.timeZone })} (${check.quietHours.timeZone})`,
              })}
            </Text>
          )}
          {canManageSettings && (
            <Anchor component={Link} to="/settings#quiet-hours" size="sm" mt={4} display="block">
              {t('campaign.schedule.quiet_hours_link')}
            </Anchor>
          )}
        </Alert>
      )}
    </Stack>
  );
}
