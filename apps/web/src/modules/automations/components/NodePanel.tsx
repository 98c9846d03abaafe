import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  BRANCH_CONDITIONS,
  DELAY_KINDS,
  DELAY_UNITS,
  MONTHS,
  SCENARIO_SUBJECT_MAX,
  STAY_OFFSET_MAX_DAYS,
  STAY_RELATIVE_TRIGGERS,
  STAY_TRIGGERS,
  TRIGGER_KINDS,
  WEEKDAYS,
  type TDelay,
  type TScenarioNode,
  type TTrigger,
} from '@yado/contracts/scenarios';
import { IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { delayOfKind, triggerOfKind } from '../graph/newNode';

export interface TChoice {
  value: string;
  label: string;
}

export interface TNodePanelProps {
  node: TScenarioNode;
  readOnly: boolean;
  templates: TChoice[];
  segments: TChoice[];
  senders: string[];
  /** existing_segment_automation: customers newly entering a dynamic segment. */
  segmentEntry: boolean;
  onChange: (node: TScenarioNode) => void;
  onDelete: () => void;
}

const int = (value: string | number, fallback: number) =>
  typeof value === 'number' ? value : Number.parseInt(value, 10) || fallback;

function TriggerFields({
  data,
  readOnly,
  segments,
  segmentEntry,
  set,
}: {
  data: TTrigger;
  readOnly: boolean;
  segments: TChoice[];
  segmentEntry: boolean;
  set: (d: TTrigger) => void;
}) {
  const { t } = useTranslation();
  const kinds = TRIGGER_KINDS.filter((k) => k !== 'segment_entered' || segmentEntry || data.kind === k);
  return (
    <>
      <NativeSelect
        label={t('automations.trigger.type')}
        value={data.kind}
        disabled={readOnly}
        onChange={(e) => set(triggerOfKind(e.currentTarget.value as TTrigger['kind']))}
        data={kinds.map((k) => ({ value: k, label: t(`automations.trigger.types.${k}`) }))}
        data-testid="trigger-kind"
      />
      {'segmentId' in data && (
        <Select
          label={t('automations.trigger.segment')}
          placeholder={t('automations.trigger.choose_segment')}
          data={segments}
          value={data.segmentId}
          searchable
          disabled={readOnly}
          onChange={(value) => set({ ...data, segmentId: value })}
        />
      )}
      {'days' in data && (
        <NumberInput
          label={t('automations.trigger.days')}
          min={0}
          max={STAY_OFFSET_MAX_DAYS}
          value={data.days}
          disabled={readOnly}
          onChange={(value) => set({ ...data, days: int(value, 0) })}
          data-testid="trigger-days"
        />
      )}
      {(STAY_TRIGGERS as readonly string[]).includes(data.kind) && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={16} />} data-testid="sync-notice">
          <Text size="sm">{t('automations.trigger.sync_notice')}</Text>
          <Text size="xs" c="dimmed" mt={4}>
            {t('automations.trigger.hotel_time')}
          </Text>
          {(STAY_RELATIVE_TRIGGERS as readonly string[]).includes(data.kind) && (
            <Text size="xs" c="dimmed" mt={4} data-testid="late-rule">
              {t('automations.trigger.late_rule')}
            </Text>
          )}
        </Alert>
      )}
    </>
  );
}

function DelayFields({ data, readOnly, set }: { data: TDelay; readOnly: boolean; set: (d: TDelay) => void }) {
  const { t } = useTranslation();
  const time = 'time' in data && (
    <TextInput
      type="time"
      label={t('automations.delay.time')}
      value={data.time ?? '09:00'}
      disabled={readOnly}
      onChange={(e) => set({ ...data, time: e.currentTarget.value } as TDelay)}
    />
  );
  return (
    <>
      <NativeSelect
        label={t('automations.delay.type')}
        value={data.kind}
        disabled={readOnly}
        onChange={(e) => set(delayOfKind(e.currentTarget.value as TDelay['kind']))}
        data={DELAY_KINDS.map((k) => ({ value: k, label: t(`automations.delay.types.${k}`) }))}
        data-testid="delay-kind"
      />
      {data.kind === 'duration' && (
        <Group grow>
          <NumberInput
            label={t('automations.delay.amount')}
            value={data.amount}
            disabled={readOnly}
            onChange={(value) => set({ ...data, amount: int(value, 0) })}
            data-testid="delay-amount"
          />
          <NativeSelect
            label={t('automations.delay.unit')}
            value={data.unit}
            disabled={readOnly}
            onChange={(e) => set({ ...data, unit: e.currentTarget.value as (typeof DELAY_UNITS)[number] })}
            data={DELAY_UNITS.map((u) => ({ value: u, label: t(`automations.delay.units.${u}`) }))}
            data-testid="delay-unit"
          />
        </Group>
      )}
      {data.kind === 'weekday' && (
        <Checkbox.Group
          label={t('automations.delay.weekdays')}
          value={data.weekdays.map(String)}
          onChange={(values) => set({ ...data, weekdays: values.map(Number).sort() })}
        >
          <Group gap="xs" mt={4}>
            {WEEKDAYS.map((w) => (
              <Checkbox
                key={w}
                value={String(w)}
                label={t(`automations.delay.weekday_names.${w}`)}
                disabled={readOnly}
              />
            ))}
          </Group>
        </Checkbox.Group>
      )}
      {data.kind === 'month' && (
        <Checkbox.Group
          label={t('automations.delay.months')}
          value={data.months.map(String)}
          onChange={(values) => set({ ...data, months: values.map(Number).sort((a, b) => a - b) })}
        >
          <Group gap="xs" mt={4}>
            {MONTHS.map((m) => (
              <Checkbox key={m} value={String(m)} label={t(`automations.delay.month_names.${m}`)} disabled={readOnly} />
            ))}
          </Group>
        </Checkbox.Group>
      )}
      {(data.kind === 'day_of_month' || data.kind === 'month') && (
        <NumberInput
          label={t('automations.delay.day_of_month')}
          min={1}
          max={31}
          value={data.day}
          disabled={readOnly}
          onChange={(value) => set({ ...data, day: int(value, 1) })}
        />
      )}
      {data.kind === 'date' && (
        <TextInput
          type="date"
          label={t('automations.delay.date')}
          value={data.date}
          disabled={readOnly}
          onChange={(e) => set({ ...data, date: e.currentTarget.value })}
        />
      )}
      {time}
    </>
  );
}

/** The side panel of the selected step: its settings by kind. */
export function NodePanel({
  node,
  readOnly,
  templates,
  segments,
  senders,
  segmentEntry,
  onChange,
  onDelete,
}: TNodePanelProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="node-panel" data-node-id={node.id}>
      <Title order={3} size="h5">
        {t(`automations.kind.${node.type}`)}
      </Title>
      {node.type === 'trigger' && (
        <TriggerFields
          data={node.data}
          readOnly={readOnly}
          segments={segments}
          segmentEntry={segmentEntry}
          set={(data) => onChange({ ...node, data })}
        />
      )}
      {node.type === 'delay' && (
        <DelayFields data={node.data} readOnly={readOnly} set={(data) => onChange({ ...node, data })} />
      )}
      {node.type === 'branch' && (
        <NativeSelect
          label={t('automations.branch.kind')}
          value={node.data.condition}
          disabled={readOnly}
          onChange={(e) =>
            onChange({ ...node, data: { condition: e.currentTarget.value as (typeof BRANCH_CONDITIONS)[number] } })
          }
          data={BRANCH_CONDITIONS.map((c) => ({ value: c, label: t(`automations.branch.kinds.${c}`) }))}
          data-testid="branch-condition"
        />
      )}
      {node.type === 'email' && (
        <>
          <Select
            label={t('automations.email.template')}
            placeholder={t('automations.email.choose_template')}
            data={templates}
            value={node.data.templateId}
            searchable
            disabled={readOnly}
            onChange={(value) => onChange({ ...node, data: { ...node.data, templateId: value } })}
            data-testid="email-template"
          />
          <TextInput
            label={t('automations.email.subject')}
            maxLength={SCENARIO_SUBJECT_MAX}
            value={node.data.subject}
            disabled={readOnly}
            onChange={(e) => onChange({ ...node, data: { ...node.data, subject: e.currentTarget.value } })}
            data-testid="email-subject"
          />
          <NativeSelect
            label={t('automations.email.sender')}
            description={
              senders.length > 0 ? t('automations.email.sender_from_settings') : t('automations.email.no_sender')
            }
            value={node.data.senderEmail ?? ''}
            disabled={readOnly}
            onChange={(e) => onChange({ ...node, data: { ...node.data, senderEmail: e.currentTarget.value || null } })}
            data={[
              { value: '', label: '—' },
              ...[...new Set([...senders, ...(node.data.senderEmail ? [node.data.senderEmail] : [])])].map((s) => ({
                value: s,
                label: s,
              })),
            ]}
            data-testid="email-sender"
          />
        </>
      )}
      {!readOnly && (
        <Button
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={onDelete}
          data-testid="node-delete"
        >
          {t('automations.editor.delete_node')}
        </Button>
      )}
    </Stack>
  );
}
