import { Anchor, Button, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SCENARIO_STATUSES, type TScenarioListItem, type TScenarioStatus } from '@yado/contracts/scenarios';
import {
  IconArrowBackUp,
  IconChartBar,
  IconCopy,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconRefresh,
  IconSparkles,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { FilterSelect, ListPager, ListToolbar } from '../../ui/components/ListControls';
import { PageHeader } from '../../ui/components/PageHeader';
import { RowActionMenu } from '../../ui/components/RowActionMenu';
import { showSnackbar } from '../../ui/components/Snackbar';
import { listMemory, useListFilters } from '../../ui/hooks/useListFilters';
import { createScenario, scenarioListQuery, type TScenarioFilters } from '../api/scenariosCalls';
import { runPeriodText } from '../components/runPeriodText';
import { ScenarioStatusBadge } from '../components/ScenarioStatusBadge';
import { editorPath, summaryPath, useScenarioActions } from '../hooks/useScenarioActions';
import { scenarioActionsFor, type TScenarioMenuAction } from '../scenarioActions';

const PAGE_SIZE = 20;
// The list as last left, so coming back from the editor finds the same search, filter and page.
const remembered = listMemory<TScenarioFilters>({ search: '', status: '', sort: '-updated_at' });

const ICONS: Record<TScenarioMenuAction, ReactNode> = {
  edit: <IconPencil size={16} />,
  summary: <IconChartBar size={16} />,
  run: <IconPlayerPlay size={16} />,
  cancel: <IconX size={16} />,
  stop: <IconPlayerPause size={16} />,
  restart: <IconRefresh size={16} />,
  resume: <IconPlayerPlay size={16} />,
  restore: <IconArrowBackUp size={16} />,
  copy: <IconCopy size={16} />,
  delete: <IconTrash size={16} />,
};

function ByAt({ at, person }: { at: string; person: TScenarioListItem['createdBy'] }) {
  const { t } = useTranslation();
  const when = formatDate(at, currentLanguage(), { withTime: true });
  return <Text size="sm">{person ? t('automations.scenario.by_at', { at: when, name: person.name }) : when}</Text>;
}

/** Spec section 2, "Scenario list": status, run period, who made and changed it, and section 4's actions. */
export function ScenarioListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useProfile().entitlements;
  const { filters, page, setPage, change } = useListFilters(remembered);
  const [creating, setCreating] = useState(false);
  const scenarios = useQuery(scenarioListQuery(filters, page, PAGE_SIZE));
  const { run, dialog } = useScenarioActions();
  const data = scenarios.data;
  const items = data?.items ?? [];

  const create = async () => {
    setCreating(true);
    try {
      const made = await createScenario({ name: t('automations.scenario.untitled') });
      void navigate(editorPath(made.id));
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setCreating(false);
    }
  };

  return (
    <>
      <PageHeader
        title={t('nav.scenario')}
        description={t('automations.scenario.description')}
        actions={
          can['scenarios.create'] && (
            <Group gap="sm">
              <Button
                component={Link}
                to="/automations/preset"
                variant="default"
                leftSection={<IconSparkles size={16} />}
              >
                {t('automations.scenario.from_preset')}
              </Button>
              <Button leftSection={<IconPlus size={16} />} loading={creating} onClick={() => void create()}>
                {t('automations.scenario.create')}
              </Button>
            </Group>
          )
        }
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <ListToolbar
            search={filters.search}
            onSearch={(search) => change({ search })}
            searchPlaceholder={t('automations.scenario.search')}
          >
            <FilterSelect<TScenarioStatus | ''>
              label={t('automations.scenario.status_filter')}
              name="status"
              value={filters.status}
              allLabel={t('automations.scenario.all_statuses')}
              options={SCENARIO_STATUSES.map((status) => ({
                value: status,
                label: t(`automations.status.${status}`),
                count: data ? (data.byStatus[status] ?? 0) : undefined,
              }))}
              onChange={(status) => change({ status })}
            />
          </ListToolbar>
          {scenarios.isError ? (
            <Text c="red" role="alert">
              {errorText(scenarios.error, t)}
            </Text>
          ) : data && items.length === 0 ? (
            <EmptyState readOnly={!can['scenarios.create']} />
          ) : (
            <Table.ScrollContainer minWidth={900}>
              <Table highlightOnHover data-testid="scenario-table">
                <Table.Thead>
                  <Table.Tr>
                    {(['name', 'status', 'run_period', 'created', 'modified'] as const).map((key) => (
                      <Table.Th key={key}>{t(`automations.scenario.columns.${key}`)}</Table.Th>
                    ))}
                    <Table.Th>
                      <VisuallyHidden>{t('automations.scenario.columns.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((scenario) => {
                    const actions = scenarioActionsFor(scenario.status, scenario.editable, can);
                    // What has not run yet opens in the editor; what has run opens its summary.
                    const to =
                      scenario.status === 'draft' || scenario.status === 'scheduled'
                        ? editorPath(scenario.id)
                        : summaryPath(scenario.id);
                    return (
                      <Table.Tr
                        key={scenario.id}
                        data-testid="scenario-row"
                        data-name={scenario.name}
                        data-status={scenario.status}
                      >
                        <Table.Td>
                          <Anchor component={Link} to={to} fw={600}>
                            {scenario.name}
                          </Anchor>
                          {scenario.description && (
                            <Text size="xs" c="dimmed" lineClamp={1} maw={360}>
                              {scenario.description}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <ScenarioStatusBadge status={scenario.status} />
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{runPeriodText(scenario.run, t)}</Text>
                        </Table.Td>
                        <Table.Td>
                          <ByAt at={scenario.createdAt} person={scenario.createdBy} />
                        </Table.Td>
                        <Table.Td>
                          <ByAt at={scenario.updatedAt} person={scenario.updatedBy} />
                        </Table.Td>
                        <Table.Td>
                          <RowActionMenu
                            actions={actions}
                            icons={ICONS}
                            danger={['delete', 'stop']}
                            label={t('automations.scenario.menu', { name: scenario.name })}
                            textOf={(action) => t(`automations.actions.${action}`)}
                            onRun={(action) => run(action, scenario)}
                            testId="scenario"
                          />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <ListPager
            texts="automations.scenario"
            testId="scenario"
            page={page}
            pageSize={PAGE_SIZE}
            query={scenarios}
            onPage={setPage}
          />
        </Stack>
      </Paper>
      {dialog}
    </>
  );
}
