import {
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { checkScenarioGraph, SCENARIO_GRAPH_VERSION, type TNodeType, type TScenario } from '@yado/contracts/scenarios';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconArrowsSplit,
  IconBolt,
  IconChartBar,
  IconCircleCheck,
  IconDeviceFloppy,
  IconHourglass,
  IconLayoutDistributeHorizontal,
  IconMail,
  IconPlayerPause,
  IconPlayerPlay,
  IconRefresh,
  IconSettings,
} from '@tabler/icons-react';
import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type Edge,
  type NodeChange,
  type EdgeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useReducer, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { setupQuery } from '../../sending/api/sendingCalls';
import { segmentChoicesQuery } from '../../segmentation/api/segmentsCalls';
import { useProfile } from '../../shell/hooks/useProfile';
import { SaveStatus } from '../../ui/components/SaveStatus';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useAutosave } from '../../ui/hooks/useAutosave';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import {
  executionLogQuery,
  SCENARIOS_QUERY_KEY,
  scenarioQuery,
  templateChoicesQuery,
  updateScenario,
} from '../api/scenariosCalls';
import { NodePanel } from '../components/NodePanel';
import { ScenarioSettingsDrawer, type TScenarioSettings } from '../components/ScenarioSettingsDrawer';
import { ScenarioStatusBadge } from '../components/ScenarioStatusBadge';
import { sendTimeInQuietHours } from '../components/sendTimeQuiet';
import { StepNode, type TStepFlowNode } from '../components/StepNode';
import { emptyEditorGraph, graphReducer } from '../graph/graphReducer';
import { newNode, newNodeId } from '../graph/newNode';
import { refusalFaults } from '../graph/refusalFaults';
import { summaryPath, useScenarioActions } from '../hooks/useScenarioActions';
import { scenarioActionsFor } from '../scenarioActions';

const NODE_TYPES = { step: StepNode };
const PALETTE: { type: TNodeType; icon: ReactNode }[] = [
  { type: 'trigger', icon: <IconBolt size={18} /> },
  { type: 'delay', icon: <IconHourglass size={18} /> },
  { type: 'branch', icon: <IconArrowsSplit size={18} /> },
  { type: 'email', icon: <IconMail size={18} /> },
];
const DRAG_TYPE = 'application/x-yado-step';

function settingsOf(scenario: TScenario): TScenarioSettings {
  return {
    name: scenario.name,
    description: scenario.description,
    run: scenario.run,
    holdoutPercent: scenario.holdoutPercent,
  };
}

function ScenarioEditor({ scenario, onReload }: { scenario: TScenario; onReload: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useProfile();
  const can = me.entitlements;
  const flow = useReactFlow();
  const readOnly = scenario.status !== 'draft' || !scenario.editable || !can['scenarios.update'];
  const [state, dispatch] = useReducer(graphReducer, undefined, () =>
    graphReducer(emptyEditorGraph(), { type: 'load', nodes: scenario.graph.nodes, edges: scenario.graph.edges }),
  );
  const [settings, setSettings] = useState(() => settingsOf(scenario));
  const [settingsRevision, setSettingsRevision] = useState(0);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The version last saved here: autosave names it, and a scenario changed elsewhere is refused.
  const version = useRef(scenario.updatedAt);

  // Every change is saved as a draft a second after the last one, as the template builder does.
  const autosave = useAutosave({
    revision: state.revision + settingsRevision,
    enabled: !readOnly && settings.name.trim() !== '',
    isStale: (error) => isApiError(error) && error.code === 'scenario_stale',
    save: async () => {
      const saved = await updateScenario(scenario.id, {
        name: settings.name,
        description: settings.description,
        graph: { version: SCENARIO_GRAPH_VERSION, nodes: state.nodes, edges: state.edges },
        run: settings.run,
        holdoutPercent: settings.holdoutPercent,
        updatedAt: version.current,
      });
      version.current = saved.updatedAt;
      queryClient.setQueryData(scenarioQuery(scenario.id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: SCENARIOS_QUERY_KEY, refetchType: 'none' });
    },
  });
  const dirty = !readOnly && autosave.state !== 'saved';
  // Leaving before the last change is saved saves it first (the link back, the sidebar); only a
  // change that cannot be saved (no name, refused, changed elsewhere) asks, and is then truly lost.
  const leaveGuard = useLeaveGuard(() => !readOnly && autosave.isDirty(), {
    saveFirst: async () => {
      if (settings.name.trim() === '' || autosave.state === 'stale') return false;
      try {
        await autosave.flush();
        return !autosave.isDirty();
      } catch {
        return false;
      }
    },
  });

  const templates = useQuery({ ...templateChoicesQuery(), enabled: can['templates.view_templates_report'] === true });
  const segments = useQuery(segmentChoicesQuery('', can['segmentation.read_segment'] === true));
  // The senders as the campaign editor reads them: the Setup overview, which everyone who may edit
  // a scenario may read (the campaign email settings themselves are for those who manage them).
  const setup = useQuery(setupQuery);
  const sending = setup.data?.settings ?? null;
  const live = scenario.status !== 'draft';
  const log = useQuery({ ...executionLogQuery(scenario.id, scenario.status === 'running'), enabled: live });

  // The server's copy wins whenever there is nothing unsaved here: after a restart, a run, or
  // while the scenario runs (read-only) and its counts move; not after this editor's own save.
  useEffect(() => {
    if (!readOnly && (autosave.isDirty() || scenario.updatedAt === version.current)) return;
    version.current = scenario.updatedAt;
    dispatch({ type: 'load', nodes: scenario.graph.nodes, edges: scenario.graph.edges });
    setSettings(settingsOf(scenario));
    autosave.markSaved();
    // Reload on a new server version only, not on each local change.
  }, [scenario.updatedAt, scenario.status]);

  // The contract's own check marks the nodes as the graph changes (shape only; a run adds time).
  useEffect(() => {
    const graph = { version: SCENARIO_GRAPH_VERSION, nodes: state.nodes, edges: state.edges } as const;
    dispatch({
      type: 'mark',
      faults: checkScenarioGraph(graph, { timeZone: settings.run.timeZone, run: settings.run }),
    });
  }, [state.nodes, state.edges, settings.run]);

  /** Saves what is on the canvas now (before a run); false when the server refused, said in a snackbar. */
  const save = async (): Promise<boolean> => {
    if (settings.name.trim() === '') {
      setSettingsOpen(true);
      return false;
    }
    if (autosave.state === 'stale') {
      showSnackbar({ status: 'failed', message: t('errors.scenario_stale') });
      return false;
    }
    try {
      await autosave.flush();
      return true;
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
      dispatch({
        type: 'mark',
        faults: refusalFaults(
          error,
          state.nodes.map((n) => n.id),
        ),
      });
      return false;
    }
  };

  const actions = useScenarioActions({
    onRefused: (error) => {
      const faults = refusalFaults(
        error,
        state.nodes.map((n) => n.id),
      );
      if (faults.length > 0) dispatch({ type: 'mark', faults });
    },
  });
  const allowed = scenarioActionsFor(scenario.status, scenario.editable, can);
  const act = async (action: 'run' | 'stop' | 'restart' | 'cancel' | 'resume') => {
    // "Finish and run": what is on the canvas is saved first, so the run checks what the user sees.
    if (action === 'run' && autosave.isDirty() && !(await save())) return;
    // A send time inside the quiet hours is said before the run: those mails wait until they end.
    const held = sendTimeInQuietHours(settings.run.sendTime, settings.run.timeZone, quietHours);
    const note =
      action === 'run' && held
        ? t('automations.confirm.run_quiet_hours', { time: settings.run.sendTime, start: held.start, end: held.end })
        : undefined;
    actions.run(action, { id: scenario.id, name: settings.name, note });
  };

  const senders = useMemo(() => {
    const s = sending;
    return s
      ? [
          ...new Set(
            [s.effective.senderEmail, s.own.senderEmail, s.inherited.senderEmail].filter((v): v is string =>
              Boolean(v),
            ),
          ),
        ]
      : [];
  }, [sending]);
  // With one sender only, an email step without one gets it (as a campaign gets the settings' sender).
  useEffect(() => {
    if (readOnly || senders.length !== 1) return;
    for (const node of state.nodes)
      if (node.type === 'email' && !node.data.senderEmail)
        dispatch({ type: 'configure', node: { ...node, data: { ...node.data, senderEmail: senders[0] ?? null } } });
  }, [readOnly, senders, state.nodes]);
  const quietHours = useMemo(() => {
    const s = sending?.effective;
    return s?.quietHoursStart && s.quietHoursEnd && sending
      ? { start: s.quietHoursStart, end: s.quietHoursEnd, timeZone: sending.timeZone }
      : null;
  }, [sending]);
  const templateNames = useMemo(() => new Map((templates.data ?? []).map((c) => [c.value, c.label])), [templates.data]);
  const statusById = useMemo(
    () => new Map((log.data?.nodes ?? scenario.nodes).map((s) => [s.nodeId, s])),
    [log.data, scenario.nodes],
  );

  const add = (type: TNodeType, position?: { x: number; y: number }) => {
    const at = position ?? { x: 40 * (state.nodes.length % 6), y: 120 * Math.floor(state.nodes.length / 2) };
    dispatch({ type: 'add', node: newNode(type, newNodeId(type), at, senders[0] ?? null) });
  };
  const onDrop = (event: DragEvent) => {
    const type = event.dataTransfer.getData(DRAG_TYPE) as TNodeType;
    if (readOnly || !PALETTE.some((p) => p.type === type)) return;
    event.preventDefault();
    add(type, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };

  const flowNodes: TStepFlowNode[] = state.nodes.map((node) => ({
    id: node.id,
    type: 'step',
    position: node.position,
    selected: node.id === state.selectedId,
    data: {
      node,
      faults: state.faults[node.id] ?? [],
      status: statusById.get(node.id),
      templateName: node.type === 'email' && node.data.templateId ? templateNames.get(node.data.templateId) : undefined,
    },
  }));
  const [selectedEdges, setSelectedEdges] = useState<ReadonlySet<string>>(new Set());
  const flowEdges: Edge[] = state.edges.map((edge) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: edge.handle,
    selected: selectedEdges.has(edge.id),
    label: edge.handle === 'next' ? undefined : t(`automations.outlet.${edge.handle}`),
    markerEnd: { type: MarkerType.ArrowClosed },
    style: edge.handle === 'error' ? { stroke: 'var(--mantine-color-red-6)' } : undefined,
  }));
  const onNodesChange = (changes: NodeChange<TStepFlowNode>[]) => {
    for (const change of changes) {
      if (change.type === 'position' && change.position && !readOnly)
        dispatch({ type: 'move', id: change.id, position: change.position });
      if (change.type === 'select')
        dispatch(change.selected ? { type: 'select', id: change.id } : { type: 'deselect', id: change.id });
    }
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    const next = new Set(selectedEdges);
    for (const change of changes) {
      if (change.type === 'select') {
        if (change.selected) next.add(change.id);
        else next.delete(change.id);
      }
    }
    setSelectedEdges(next);
  };
  const onConnect = (connection: Connection) => {
    const handle = (connection.sourceHandle ?? 'next') as 'next' | 'yes' | 'no' | 'error';
    dispatch({
      type: 'connect',
      id: `${connection.source}-${handle}-${connection.target}`,
      source: connection.source,
      target: connection.target,
      handle,
    });
  };

  const selected = state.nodes.find((n) => n.id === state.selectedId) ?? null;
  const faultCount = Object.values(state.faults).reduce((n, list) => n + list.length, 0) + state.graphFaults.length;

  return (
    <Box
      h="100vh"
      style={{ display: 'flex', flexDirection: 'column' }}
      data-testid="scenario-editor"
      data-status={scenario.status}
    >
      <Group
        justify="space-between"
        px="md"
        py="xs"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        wrap="nowrap"
      >
        <Group gap="sm" wrap="nowrap">
          <Anchor component={Link} to="/automations/scenario" size="sm" aria-label={t('automations.editor.back')}>
            <Group gap={4}>
              <IconArrowLeft size={16} />
              {t('automations.editor.back')}
            </Group>
          </Anchor>
          <Title order={1} size="h4" data-testid="editor-title">
            {settings.name}
          </Title>
          <ScenarioStatusBadge status={scenario.status} />
          {!readOnly && <SaveStatus state={autosave.state} onRetry={() => void save()} onReload={onReload} />}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconSettings size={16} />}
            onClick={() => setSettingsOpen(true)}
            data-testid="open-settings"
          >
            {t('automations.editor.settings')}
          </Button>
          {!readOnly && (
            <>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconLayoutDistributeHorizontal size={16} />}
                onClick={() => dispatch({ type: 'layout' })}
                data-testid="arrange"
              >
                {t('automations.editor.arrange')}
              </Button>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconDeviceFloppy size={16} />}
                loading={autosave.state === 'saving'}
                disabled={!dirty || autosave.state === 'stale'}
                onClick={() => void save()}
                data-testid="save"
              >
                {t('automations.editor.save')}
              </Button>
            </>
          )}
          {allowed.includes('summary') && (
            <Button
              component={Link}
              to={summaryPath(scenario.id)}
              variant="default"
              size="xs"
              leftSection={<IconChartBar size={16} />}
            >
              {t('automations.editor.summary')}
            </Button>
          )}
          {allowed.includes('run') && (
            <Button
              size="xs"
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => void act('run')}
              data-testid="run"
            >
              {t('automations.actions.run')}
            </Button>
          )}
          {allowed.includes('cancel') && (
            <Button size="xs" variant="default" onClick={() => void act('cancel')}>
              {t('automations.actions.cancel')}
            </Button>
          )}
          {allowed.includes('resume') && (
            <Button size="xs" leftSection={<IconPlayerPlay size={16} />} onClick={() => void act('resume')}>
              {t('automations.actions.resume')}
            </Button>
          )}
          {allowed.includes('restart') && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void act('restart')}
            >
              {t('automations.actions.restart')}
            </Button>
          )}
          {allowed.includes('stop') && (
            <Button
              size="xs"
              color="red"
              leftSection={<IconPlayerPause size={16} />}
              onClick={() => void act('stop')}
              data-testid="stop"
            >
              {t('automations.actions.stop')}
            </Button>
          )}
        </Group>
      </Group>
      {readOnly && (
        <Alert color="gray" variant="light" radius={0} py={6} data-testid="editor-read-only">
          {scenario.status === 'draft'
            ? t('automations.editor.read_only_no_right')
            : t(`automations.editor.read_only_status.${scenario.status}`)}
        </Alert>
      )}
      {(state.graphFaults.length > 0 || state.refusal) && (
        <Alert
          color={state.refusal ? 'orange' : 'red'}
          variant="light"
          radius={0}
          py={6}
          icon={<IconAlertTriangle size={16} />}
          data-testid="graph-faults"
        >
          {state.refusal && <Text size="sm">{t(`automations.editor.refusal.${state.refusal}`)}</Text>}
          {state.graphFaults.map((code) => (
            <Text key={code} size="sm">
              {t(`errors.${code}`)}
            </Text>
          ))}
        </Alert>
      )}
      <Box style={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {!readOnly && (
          <Stack
            gap="xs"
            p="sm"
            w={200}
            style={{ borderRight: '1px solid var(--mantine-color-gray-3)' }}
            data-testid="palette"
          >
            <Text size="xs" c="dimmed">
              {t('automations.editor.palette')}
            </Text>
            {PALETTE.map(({ type, icon }) => (
              <UnstyledButton
                key={type}
                draggable
                onDragStart={(event) => {
                  event.dataTransfer.setData(DRAG_TYPE, type);
                  event.dataTransfer.effectAllowed = 'move';
                }}
                onClick={() => add(type)}
                aria-label={t('automations.editor.palette_add', { kind: t(`automations.kind.${type}`) })}
                data-testid={`palette-${type}`}
              >
                <Paper withBorder p="xs" radius="sm" style={{ cursor: 'grab' }}>
                  <Group gap={6}>
                    {icon}
                    <Text size="sm">{t(`automations.kind.${type}`)}</Text>
                  </Group>
                </Paper>
              </UnstyledButton>
            ))}
            {faultCount === 0 && state.nodes.length > 0 && (
              // Words that wrap inside the palette, not a badge: an upper-case badge in English was
              // wider than the palette's 200 px and ran onto the canvas.
              <Group gap={6} wrap="nowrap" align="flex-start" mt="md" c="green.8" data-testid="graph-ok">
                <IconCircleCheck size={16} style={{ flexShrink: 0, marginTop: 2 }} />
                <Text size="sm" fw={500}>
                  {t('automations.editor.graph_ok')}
                </Text>
              </Group>
            )}
          </Stack>
        )}
        <Box
          style={{ flex: 1, minWidth: 0 }}
          onDragOver={(e) => e.preventDefault()}
          onDrop={onDrop}
          aria-label={t('automations.editor.canvas')}
          role="region"
        >
          <ReactFlow
            nodes={flowNodes}
            edges={flowEdges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onDelete={({ nodes, edges }) =>
              !readOnly &&
              dispatch({ type: 'remove', nodeIds: nodes.map((n) => n.id), edgeIds: edges.map((e) => e.id) })
            }
            onPaneClick={() => dispatch({ type: 'select', id: null })}
            nodesDraggable={!readOnly}
            nodesConnectable={!readOnly}
            deleteKeyCode={readOnly ? null : ['Backspace', 'Delete']}
            fitView
            fitViewOptions={{ maxZoom: 1 }}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </Box>
        <ScrollArea w={320} p="sm" style={{ borderLeft: '1px solid var(--mantine-color-gray-3)' }}>
          {selected ? (
            <NodePanel
              key={selected.id}
              node={selected}
              readOnly={readOnly}
              templates={templates.data ?? []}
              segments={(segments.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
              senders={senders}
              segmentEntry={me.features.existing_segment_automation === true}
              onChange={(node) => dispatch({ type: 'configure', node })}
              onDelete={() => dispatch({ type: 'remove', nodeIds: [selected.id], edgeIds: [] })}
            />
          ) : (
            <Text size="sm" c="dimmed" data-testid="no-selection">
              {readOnly ? t('automations.editor.no_selection_read_only') : t('automations.editor.no_selection')}
            </Text>
          )}
        </ScrollArea>
      </Box>
      <ScenarioSettingsDrawer
        opened={settingsOpen}
        settings={settings}
        readOnly={readOnly}
        quietHours={quietHours}
        onChange={(next) => {
          setSettings(next);
          setSettingsRevision((n) => n + 1);
        }}
        onClose={() => setSettingsOpen(false)}
      />
      {actions.dialog}
      {leaveGuard}
    </Box>
  );
}

/** /automations/editor?id=…: the scenario's graph on a whole window (no shell). */
export function ScenarioEditorPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const queryClient = useQueryClient();
  const scenario = useQuery(scenarioQuery(id));
  // A reload (after another tab saved) starts the editor again from the stored scenario.
  const [reloads, setReloads] = useState(0);
  if (!id || scenario.isError) {
    return (
      <Center mih="100vh" p="md">
        <Paper withBorder p="lg" radius="md" maw={480}>
          <Stack>
            <Text role="alert" data-testid="editor-not-found">
              {scenario.isError ? errorText(scenario.error, t) : t('automations.editor.not_found')}
            </Text>
            <Anchor component={Link} to="/automations/scenario" size="sm">
              {t('automations.editor.back')}
            </Anchor>
          </Stack>
        </Paper>
      </Center>
    );
  }
  if (!scenario.data) {
    return (
      <Center mih="100vh">
        <Loader />
      </Center>
    );
  }
  return (
    <ReactFlowProvider>
      <ScenarioEditor
        key={`${scenario.data.id}:${reloads}`}
        scenario={scenario.data}
        onReload={() =>
          void queryClient.refetchQueries({ queryKey: scenarioQuery(id).queryKey }).then(() => setReloads((n) => n + 1))
        }
      />
    </ReactFlowProvider>
  );
}
