import { Paper, Stack, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconMinus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TChange } from '../utils/figures';

/**
 * One total of the window with its change against the 7 days before. A figure that cannot be
 * known shows "-" and `note` says why, never a zero that was not counted.
 */
export function FigureCard({
  label,
  hint,
  value,
  note,
  change,
  testId,
  lowerIsBetter = false,
}: {
  label: string;
  /** What the figure counts, when the label alone does not say it. */
  hint?: string;
  value: string | null;
  note?: string;
  change: TChange;
  testId: string;
  /**
   * A figure that should fall (bounce and complaint rates, unsubscribed guests, failed campaigns):
   * a rise is shown in red, a fall in green.
   */
  lowerIsBetter?: boolean;
}) {
  const { t } = useTranslation();
  const rising = change.kind === 'up' || change.kind === 'points_up';
  const falling = change.kind === 'down' || change.kind === 'points_down';
  const good = lowerIsBetter ? falling : rising;
  const bad = lowerIsBetter ? rising : falling;
  const Icon = rising ? IconArrowUpRight : falling ? IconArrowDownRight : IconMinus;
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Stack gap={4}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text fw={700} size="xl" data-testid={`${testId}-value`}>
          {value ?? '-'}
        </Text>
        {hint && (
          <Text size="xs" c="dimmed" data-testid={`${testId}-hint`}>
            {hint}
          </Text>
        )}
        {value === null && note && (
          <Text size="xs" c="dimmed" data-testid={`${testId}-note`}>
            {note}
          </Text>
        )}
        <Text size="xs" c={good ? 'teal' : bad ? 'red' : 'dimmed'} data-testid={`${testId}-change`}>
          <Icon size={12} style={{ verticalAlign: 'middle', marginRight: 4 }} />
          {t(`dashboard.change.${change.kind}`, 'value' in change ? { value: change.value } : {})}
        </Text>
      </Stack>
    </Paper>
  );
}
