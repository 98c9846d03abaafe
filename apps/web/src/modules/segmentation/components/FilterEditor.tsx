import { Alert, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconUsersGroup } from '@tabler/icons-react';
import type { TFilter, TFilterFaultCode } from '@yado/contracts/segments';
import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { marksFromError, type TDraftAction, type TDraftCheck } from '../filterDraft';
import { useLiveCount } from '../hooks/useLiveCount';
import { FilterBuilder } from './FilterBuilder';

/** Both sets of marks in one: the console's own check and the places a server refusal named. */
function merge(...sets: (Map<string, TFilterFaultCode[]> | null)[]): Map<string, TFilterFaultCode[]> {
  const out = new Map<string, TFilterFaultCode[]>();
  for (const set of sets) for (const [place, codes] of set ?? []) out.set(place, [...(out.get(place) ?? []), ...codes]);
  return out;
}

/**
 * The builder with its live audience (spec section 5: debounced 1,000 ms, before saving) and
 * "Oops! Please double-check the filter logic arrangement." with the faulty places marked, from
 * the console's check of the contract or from the server's refusal.
 */
export function FilterEditor({
  filter,
  dispatch,
  check,
  serverError,
  attempted,
}: {
  filter: TFilter;
  dispatch: Dispatch<TDraftAction>;
  check: TDraftCheck;
  /** The refusal of the last save, when it was about the filter. */
  serverError: unknown;
  /** A save was tried: values still to fill in are marked too. */
  attempted: boolean;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const live = useLiveCount(filter, check.complete);
  const serverMarks = marksFromError(serverError) ?? marksFromError(live.error);
  const marks = merge(attempted ? check.marks : check.wrongMarks, serverMarks);
  const oops = serverMarks !== null || check.wrong || (attempted && !check.complete);
  const total = live.count?.total;

  return (
    <Stack gap="sm">
      {/* The audience stays in sight while a long filter scrolls under it. */}
      <Paper
        withBorder
        radius="md"
        p="sm"
        bg="blue.0"
        shadow="xs"
        style={{ position: 'sticky', top: 8, zIndex: 3 }}
        data-testid="live-count"
      >
        <Group gap="sm" wrap="nowrap">
          <IconUsersGroup size={20} color="var(--mantine-color-blue-7)" />
          <Text size="sm" c="dimmed">
            {t('segmentation.count.title')}
          </Text>
          {live.waiting ? (
            <Text size="sm" c="dimmed" data-testid="live-count-waiting">
              {t('segmentation.count.waiting')}
            </Text>
          ) : total !== undefined ? (
            <Text
              size="xl"
              fw={700}
              c={live.counting ? 'dimmed' : undefined}
              data-testid="live-count-total"
              data-count={live.counting ? undefined : total}
            >
              {t('segmentation.count.total', { audience: total.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US') })}
            </Text>
          ) : null}
          {live.counting && (
            <Group gap={6}>
              <Loader size="xs" />
              <Text size="xs" c="dimmed">
                {t('segmentation.count.counting')}
              </Text>
            </Group>
          )}
          {live.error !== null && serverMarks === null && (
            <Text size="sm" c="red">
              {errorText(live.error, t)}
            </Text>
          )}
        </Group>
      </Paper>
      {oops && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="filter-oops" role="alert">
          {t('errors.filter_invalid')}
        </Alert>
      )}
      <FilterBuilder filter={filter} dispatch={dispatch} marks={marks} live={live} />
    </Stack>
  );
}
