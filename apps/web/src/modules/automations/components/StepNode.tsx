import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { TEdgeHandle, TGraphFaultCode, TNodeStatus, TScenarioNode } from '@yado/contracts/scenarios';
import { IconAlertTriangle, IconArrowsSplit, IconBolt, IconHourglass, IconMail } from '@tabler/icons-react';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { outletsOf } from '../graph/graphReducer';
import { nodeText } from '../graph/nodeText';
import { leftOtherwise, NODE_STATE_COLOR } from './nodeState';

export interface TStepData extends Record<string, unknown> {
  node: TScenarioNode;
  faults: TGraphFaultCode[];
  status: TNodeStatus | undefined;
  templateName: string | undefined;
}
export type TStepFlowNode = Node<TStepData, 'step'>;

const ICON: Record<TScenarioNode['type'], ReactNode> = {
  trigger: <IconBolt size={16} />,
  delay: <IconHourglass size={16} />,
  branch: <IconArrowsSplit size={16} />,
  email: <IconMail size={16} />,
};
const COLOR: Record<TScenarioNode['type'], string> = {
  trigger: 'violet',
  delay: 'yellow',
  branch: 'cyan',
  email: 'blue',
};
const OUTLET_AT: Record<TEdgeHandle, string> = { next: '50%', yes: '30%', no: '70%', error: '85%' };

/** One step on the canvas: what it does, its validation faults, and while it runs its state and counts. */
export function StepNode({ data, selected }: NodeProps<TStepFlowNode>) {
  const { t } = useTranslation();
  const { node, faults, status } = data;
  const outlets = outletsOf(node.type);
  const counts = status?.counts;
  const faulty = faults.length > 0 || status?.state === 'error';
  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      w={240}
      shadow={selected ? 'md' : 'xs'}
      data-testid="scenario-node"
      data-node-id={node.id}
      data-node-type={node.type}
      data-state={status?.state ?? ''}
      data-faults={faults.join(' ')}
      style={{
        borderColor: faulty ? 'var(--mantine-color-red-6)' : selected ? 'var(--mantine-color-blue-6)' : undefined,
        borderWidth: faulty || selected ? 2 : 1,
      }}
    >
      {node.type !== 'trigger' && <Handle type="target" position={Position.Top} />}
      <Stack gap={4}>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap">
            <Badge color={COLOR[node.type]} variant="light" leftSection={ICON[node.type]} size="sm">
              {t(`automations.kind.${node.type}`)}
            </Badge>
          </Group>
          {status?.state && (
            <Badge color={NODE_STATE_COLOR[status.state]} variant="dot" size="sm" data-testid="node-state">
              {t(`automations.node_state.${status.state}`)}
            </Badge>
          )}
        </Group>
        <Text size="sm" fw={500} lineClamp={2}>
          {nodeText(node, t, data.templateName)}
        </Text>
        {faults.map((code) => (
          <Group key={code} gap={4} wrap="nowrap" align="flex-start" data-testid="node-fault">
            <IconAlertTriangle size={14} color="var(--mantine-color-red-6)" style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="xs" c="red.7">
              {t(`errors.${code}`)}
            </Text>
          </Group>
        ))}
        {status?.state === 'error' && status.message && (
          <Text size="xs" c="red.7" data-testid="node-error">
            {t(`errors.${status.message}`, { defaultValue: t('errors.general') })}
          </Text>
        )}
        {counts && (
          <Group gap={8} data-testid="node-counts">
            {(
              [
                ['entered', counts.entered],
                ['waiting', counts.waiting],
                // An email step's done guests were mailed, or passed without (not mailable then).
                ...(node.type === 'email'
                  ? ([
                      ['sent', counts.done - counts.skipped],
                      ['skipped', counts.skipped],
                    ] as const)
                  : ([['done', counts.done]] as const)),
                ['failed', counts.failed],
                ['left', leftOtherwise(counts)],
                // Those the scenario's stop took out, apart from the others who left.
                ...(counts.stopped > 0 ? ([['stopped', counts.stopped]] as const) : []),
              ] as const
            ).map(([key, value]) => (
              <Text key={key} size="xs" c="dimmed" data-count={key} data-value={value}>
                {t(`automations.counts.${key}`)} <b>{value}</b>
              </Text>
            ))}
          </Group>
        )}
      </Stack>
      {outlets.map((outlet) => (
        <Handle
          key={outlet}
          id={outlet}
          type="source"
          position={Position.Bottom}
          style={{ left: OUTLET_AT[outlet], background: outlet === 'error' ? 'var(--mantine-color-red-6)' : undefined }}
          title={t(`automations.outlet.${outlet}`)}
        />
      ))}
      {outlets.length > 1 && (
        <Group justify="space-around" mt={4}>
          {outlets.map((outlet) => (
            <Text key={outlet} size="10px" c={outlet === 'error' ? 'red' : 'dimmed'}>
              {t(`automations.outlet.${outlet}`)}
            </Text>
          ))}
        </Group>
      )}
    </Paper>
  );
}
