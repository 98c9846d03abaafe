import { Anchor, Button, Text } from '@mantine/core';
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
import { formatInPageZone } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { BrandDataAction, useAtPlatform } from '../../ui/components/BrandDataAction';
import { FilterSelect } from '../../ui/components/ListControls';
import { ListPage, type TListColumn } from '../../ui/components/ListPage';
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

/** What has not run yet opens in the editor; what has run opens its summary. */
function openPath(scenario: TScenarioListItem): string {
  return scenario.status === 'draft' || scenario.status === 'scheduled'
    ? editorPath(scenario.id)
    : summaryPath(scenario.id);
}

function ByAt({ when, person }: { when: string; person: TScenarioListItem['createdBy'] }) {
  const { t } = useTranslation();
  // On one line: the date does not wrap inside its cell (the table scrolls sideways instead).
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {person ? t('automations.scenario.by_at', { at: when, name: person.name }) : when}
    </Text>
  );
}

/** Spec section 2, "Scenario list": status, run period, who made and changed it, and section 4's actions. */
export function ScenarioListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useProfile().entitlements;
  // At the platform a copy is refused as a create is (the platform holds no brand's data).
  const atPlatform = useAtPlatform();
  const rowCan = atPlatform ? { ...can, 'scenarios.create': false } : can;
  const list = useListFilters(remembered);
  const { filters, change } = list;
  const [creating, setCreating] = useState(false);
  const scenarios = useQuery(scenarioListQuery(filters, list.page, PAGE_SIZE));
  const { run, dialog } = useScenarioActions();
  const data = scenarios.data;
  // One time zone for the page, named under the list: the scenarios' own (their run's, as their
  // summaries show them); a row of a scenario in another zone names its zone by its time.
  const pageTimeZone = data?.items[0]?.run.timeZone;
  const zoned = (at: string, { timeZone }: TScenarioListItem['run']) =>
    formatInPageZone(at, currentLanguage(), timeZone, pageTimeZone);

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

  const columns: TListColumn<TScenarioListItem>[] = [
    {
      key: 'name',
      header: t('automations.scenario.columns.name'),
      cell: (scenario) => (
        <>
          <Anchor component={Link} to={openPath(scenario)} fw={600}>
            {scenario.name}
          </Anchor>
          {scenario.description && (
            <Text size="xs" c="dimmed" lineClamp={1} maw={360}>
              {scenario.description}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'status',
      header: t('automations.scenario.columns.status'),
      nowrap: true,
      cell: (scenario) => <ScenarioStatusBadge status={scenario.status} />,
    },
    {
      key: 'run_period',
      header: t('automations.scenario.columns.run_period'),
      cell: (scenario) => <Text size="sm">{runPeriodText(scenario.run, t)}</Text>,
    },
    {
      key: 'created',
      header: t('automations.scenario.columns.created'),
      cell: (scenario) => <ByAt when={zoned(scenario.createdAt, scenario.run)} person={scenario.createdBy} />,
    },
    {
      key: 'modified',
      header: t('automations.scenario.columns.modified'),
      cell: (scenario) => <ByAt when={zoned(scenario.updatedAt, scenario.run)} person={scenario.updatedBy} />,
    },
  ];

  const createButton = (
    <Button leftSection={<IconPlus size={16} />} loading={creating} onClick={() => void create()}>
      {t('automations.scenario.create')}
    </Button>
  );

  return (
    <ListPage<TScenarioListItem, TScenarioMenuAction, TScenarioFilters>
      title={t('nav.scenario')}
      description={t('automations.scenario.description')}
      headerActions={
        can['scenarios.create'] && (
          <BrandDataAction>
            <Button
              component={Link}
              to="/automations/preset"
              variant="default"
              leftSection={<IconSparkles size={16} />}
            >
              {t('automations.scenario.from_preset')}
            </Button>
            {createButton}
          </BrandDataAction>
        )
      }
      list={list}
      searchPlaceholder={t('automations.scenario.search')}
      filters={
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
      }
      query={scenarios}
      columns={columns}
      rowKey={(scenario) => scenario.id}
      rowProps={(scenario) => ({
        'data-testid': 'scenario-row',
        'data-name': scenario.name,
        'data-status': scenario.status,
      })}
      rowActions={{
        of: (scenario) => scenarioActionsFor(scenario.status, scenario.editable, rowCan),
        icons: ICONS,
        danger: ['delete', 'stop'],
        label: (scenario) => t('automations.scenario.menu', { name: scenario.name }),
        textOf: (action) => t(`automations.actions.${action}`),
        onRun: run,
        header: t('automations.scenario.columns.actions'),
      }}
      empty={{
        title: t('automations.scenario.empty_title'),
        next: t('automations.scenario.empty_next'),
        action: can['scenarios.create'] && <BrandDataAction repeated>{createButton}</BrandDataAction>,
        readOnly: !can['scenarios.create'],
      }}
      texts="automations.scenario"
      testId="scenario"
      pageSize={PAGE_SIZE}
      minWidth={900}
    >
      {pageTimeZone && (
        <Text size="xs" c="dimmed" mt="xs" data-testid="scenario-time-zone">
          {t('automations.time_zone_note', { timeZone: pageTimeZone })}
        </Text>
      )}
      {dialog}
    </ListPage>
  );
}
