import { Anchor, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { AREAS } from '../../shell/navigation';
import { runningScenariosQuery } from '../api/dashboardCalls';
import { formatCount } from '../utils/figures';

/**
 * The running automation scenarios of the acting host (the scenario list's read entitlement), their
 * times in `timeZone` (the page's, which its header names).
 */
export function RunningScenariosPanel({ timeZone }: { timeZone?: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const running = useQuery(runningScenariosQuery);
  const data = running.data;
  return (
    <Paper withBorder radius="md" p="md" data-testid="running-scenarios">
      <Text fw={600} size="sm" mb="xs">
        {t('dashboard.upcoming.scenarios_title')}
      </Text>
      {running.isPending && <Skeleton h={48} radius="sm" />}
      {running.isError && (
        <Text size="sm" c="red">
          {t('dashboard.load_failed')}
        </Text>
      )}
      {data && data.scenarios.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('dashboard.upcoming.no_scenarios')}
        </Text>
      )}
      {data && data.scenarios.length > 0 && (
        <Stack gap={6}>
          {data.scenarios.map((s) => (
            <div key={s.id} data-testid="running-scenario-row" data-name={s.name}>
              <Anchor component={Link} to={`${AREAS.scenario.path}/${s.id}`} size="sm">
                {s.name}
              </Anchor>
              <Text size="xs" c="dimmed">
                {s.startedAt
                  ? t('dashboard.upcoming.scenario_since', {
                      date: formatDate(s.startedAt, language, { withTime: true, timeZone }),
                    })
                  : t('dashboard.upcoming.scenario_running')}
                {' · '}
                {t('dashboard.upcoming.scenario_entered', {
                  count: s.entered,
                  formatted: formatCount(s.entered, language),
                })}
                {' · '}
                {s.hostName}
              </Text>
            </div>
          ))}
          {data.total > data.scenarios.length && (
            <Anchor component={Link} to={AREAS.scenario.path} size="xs" data-testid="running-scenarios-more">
              {t('dashboard.upcoming.scenarios_more', { count: data.total - data.scenarios.length })}
            </Anchor>
          )}
        </Stack>
      )}
    </Paper>
  );
}
