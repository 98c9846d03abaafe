import {
  Button,
  Drawer,
  Group,
  NativeSelect,
  NumberInput,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  REPEAT_UNITS,
  RUN_PERIOD_KINDS,
  SCENARIO_DESCRIPTION_MAX,
  SCENARIO_NAME_MAX,
  type TRunPeriod,
  type TScenarioRun,
} from '@yado/contracts/scenarios';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { timeZoneChoices } from '../../campaigns/zonedTime';
import { HoldoutSetting } from '../../experiments/components/HoldoutSetting';
import { sendTimeInQuietHours, type TQuietHours } from './sendTimeQuiet';

export interface TScenarioSettings {
  name: string;
  description: string;
  run: TScenarioRun;
  /** The share of entering guests held out (issue 26); null: none. */
  holdoutPercent: number | null;
}

function periodOfKind(kind: TRunPeriod['kind']): TRunPeriod {
  return kind === 'recurring' ? { kind, every: 1, unit: 'days' } : { kind };
}

/** Section 3's scenario fields: name, description, run period, start and end, time, time zone; and the holdout. */
export function ScenarioSettingsDrawer({
  opened,
  settings,
  readOnly,
  quietHours = null,
  onChange,
  onClose,
}: {
  opened: boolean;
  settings: TScenarioSettings;
  readOnly: boolean;
  /** The host's quiet hours (its campaign email settings), to say when the send time falls in them. */
  quietHours?: TQuietHours | null;
  onChange: (settings: TScenarioSettings) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { run } = settings;
  const zones = useMemo(() => timeZoneChoices(run.timeZone), [run.timeZone]);
  const setRun = (next: Partial<TScenarioRun>) => onChange({ ...settings, run: { ...run, ...next } });
  const blankToNull = (value: string) => (value === '' ? null : value);
  const held = sendTimeInQuietHours(run.sendTime, run.timeZone, quietHours);
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title={t('automations.editor.settings')} size="md">
      <Stack gap="sm" data-testid="scenario-settings">
        <TextInput
          label={t('automations.settings.name')}
          required
          maxLength={SCENARIO_NAME_MAX}
          value={settings.name}
          disabled={readOnly}
          onChange={(e) => onChange({ ...settings, name: e.currentTarget.value })}
          error={settings.name.trim() === '' ? t('validation.required') : undefined}
          data-testid="scenario-name"
        />
        <Textarea
          label={t('automations.settings.description')}
          maxLength={SCENARIO_DESCRIPTION_MAX}
          autosize
          minRows={2}
          value={settings.description}
          disabled={readOnly}
          onChange={(e) => onChange({ ...settings, description: e.currentTarget.value })}
        />
        <NativeSelect
          label={t('automations.settings.run_period')}
          value={run.period.kind}
          disabled={readOnly}
          onChange={(e) => setRun({ period: periodOfKind(e.currentTarget.value as TRunPeriod['kind']) })}
          data={RUN_PERIOD_KINDS.map((k) => ({ value: k, label: t(`automations.run_period.${k}`) }))}
          data-testid="run-period"
        />
        {run.period.kind === 'recurring' && (
          <Group grow>
            <NumberInput
              label={t('automations.settings.repeat_every')}
              min={1}
              max={1000}
              value={run.period.every}
              disabled={readOnly}
              onChange={(value) =>
                run.period.kind === 'recurring' && setRun({ period: { ...run.period, every: Number(value) || 1 } })
              }
            />
            <NativeSelect
              label={t('automations.settings.repeat_unit')}
              value={run.period.unit}
              disabled={readOnly}
              onChange={(e) =>
                run.period.kind === 'recurring' &&
                setRun({ period: { ...run.period, unit: e.currentTarget.value as (typeof REPEAT_UNITS)[number] } })
              }
              data={REPEAT_UNITS.map((u) => ({ value: u, label: t(`automations.run_period.units.${u}`) }))}
            />
          </Group>
        )}
        <Group grow>
          <TextInput
            type="date"
            label={t('automations.settings.start_date')}
            value={run.startDate ?? ''}
            disabled={readOnly}
            onChange={(e) => setRun({ startDate: blankToNull(e.currentTarget.value) })}
          />
          <TextInput
            type="time"
            label={t('automations.settings.time')}
            value={run.startTime ?? ''}
            disabled={readOnly}
            onChange={(e) => setRun({ startTime: blankToNull(e.currentTarget.value) })}
          />
        </Group>
        {run.period.kind !== 'one_time' && (
          <Group grow>
            <TextInput
              type="date"
              label={t('automations.settings.end_date')}
              value={run.endDate ?? ''}
              disabled={readOnly}
              onChange={(e) => setRun({ endDate: blankToNull(e.currentTarget.value) })}
            />
            <TextInput
              type="time"
              label={t('automations.settings.time')}
              value={run.endTime ?? ''}
              disabled={readOnly}
              onChange={(e) => setRun({ endTime: blankToNull(e.currentTarget.value) })}
            />
          </Group>
        )}
        <Select
          label={t('automations.settings.time_zone')}
          data={zones}
          value={run.timeZone}
          searchable
          disabled={readOnly}
          onChange={(value) => value && setRun({ timeZone: value })}
        />
        <TextInput
          type="time"
          label={t('automations.settings.send_time')}
          description={t('automations.settings.send_time_hint')}
          value={run.sendTime}
          disabled={readOnly}
          onChange={(e) => e.currentTarget.value && setRun({ sendTime: e.currentTarget.value })}
        />
        {held && (
          <Text size="xs" c="orange.8" mt={-8} data-testid="send-time-quiet">
            {t('automations.settings.send_time_quiet', {
              time: run.sendTime,
              start: held.start,
              end: held.end,
              timeZone: held.timeZone,
            })}
          </Text>
        )}
        <HoldoutSetting
          value={settings.holdoutPercent}
          onChange={(holdoutPercent) => onChange({ ...settings, holdoutPercent })}
          readOnly={readOnly}
          subject="scenario"
        />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('automations.settings.close')}</Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
