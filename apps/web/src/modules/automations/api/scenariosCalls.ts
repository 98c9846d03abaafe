import * as scenariosApi from '@yado/contracts/scenarios';
import type {
  SCENARIO_SORTS,
  TPresetInput,
  TPresetLanguage,
  TScenario,
  TScenarioAction,
  TScenarioInput,
  TScenarioRun,
  TScenarioGraph,
  TScenarioStatus,
  TScenarioUpdate,
} from '@yado/contracts/scenarios';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as templatesApi from '@yado/contracts/templates';
import { request } from '../../../lib/http/request';

export type TScenarioSort = (typeof SCENARIO_SORTS)[number];

export const SCENARIOS_QUERY_KEY = ['scenarios'] as const;
export const PRESETS_QUERY_KEY = ['presets'] as const;

export interface TScenarioFilters {
  search: string;
  status: TScenarioStatus | '';
  sort: TScenarioSort;
}

/** Counts move on their own while a scenario runs: follow them while the page is open. */
const LIVE_MS = 5_000;

export const scenarioListQuery = (filters: TScenarioFilters, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...SCENARIOS_QUERY_KEY, 'list', filters, page, pageSize],
    queryFn: ({ signal }) =>
      request(scenariosApi.list, {
        query: {
          search: filters.search || undefined,
          status: filters.status || undefined,
          sort: filters.sort,
          page,
          pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((s) => s.status === 'running') ? LIVE_MS : false),
  });

export const scenarioQuery = (id: string) =>
  queryOptions({
    queryKey: [...SCENARIOS_QUERY_KEY, 'one', id],
    queryFn: ({ signal }) => request(scenariosApi.get, { params: { id }, signal }),
    enabled: Boolean(id),
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? LIVE_MS : false),
  });

export const executionLogQuery = (id: string, live: boolean) =>
  queryOptions({
    queryKey: [...SCENARIOS_QUERY_KEY, 'summary', id],
    queryFn: ({ signal }) => request(scenariosApi.executionLog, { params: { id }, signal }),
    refetchInterval: live ? LIVE_MS : false,
  });

export const emailDetailsQuery = (id: string, live: boolean) =>
  queryOptions({
    queryKey: [...SCENARIOS_QUERY_KEY, 'emails', id],
    queryFn: ({ signal }) => request(scenariosApi.emailDetails, { params: { id }, signal }),
    refetchInterval: live ? LIVE_MS : false,
  });

export const journeysQuery = (id: string, search: string) =>
  queryOptions({
    queryKey: [...SCENARIOS_QUERY_KEY, 'journeys', id, search],
    queryFn: ({ signal }) =>
      request(scenariosApi.journeys, { params: { id }, query: { search, page: 1, pageSize: 5 }, signal }),
    enabled: search.length > 0,
  });

/** The presets, the built-in ones' texts in the console's language. */
export const presetListQuery = (language: TPresetLanguage) =>
  queryOptions({
    queryKey: [...PRESETS_QUERY_KEY, 'list', language],
    queryFn: ({ signal }) => request(scenariosApi.presetList, { query: { lang: language }, signal }),
  });

export function createScenario(input: TScenarioInput): Promise<TScenario> {
  return request(scenariosApi.create, { body: input });
}

export function updateScenario(id: string, input: TScenarioUpdate): Promise<TScenario> {
  return request(scenariosApi.update, { params: { id }, body: input });
}

export function actOnScenario(id: string, action: TScenarioAction, confirmation?: string): Promise<TScenario> {
  return request(scenariosApi.action, { params: { id }, body: { action, confirmation } });
}

/** A draft copy, named "<name> (copy)" in `language` (the console's): 誕生日（コピー） in Japanese. */
export function copyScenario(id: string, language: TPresetLanguage): Promise<TScenario> {
  return request(scenariosApi.copy, { params: { id }, body: { language } });
}

export function deleteScenario(id: string) {
  return request(scenariosApi.remove, { params: { id } });
}

export function validateScenario(graph: TScenarioGraph, run: TScenarioRun) {
  return request(scenariosApi.validate, { body: { graph, run } });
}

export function createPreset(input: TPresetInput) {
  return request(scenariosApi.presetCreate, { body: input });
}

export function deletePreset(id: string) {
  return request(scenariosApi.presetRemove, { params: { id } });
}

/** A draft from a preset; a built-in one's name, description and step label in `language`. */
export function scenarioFromPreset(id: string, language: TPresetLanguage): Promise<TScenario> {
  return request(scenariosApi.presetUse, { params: { id }, body: { language } });
}

/** Templates the email step can use, by name (the first hundred; a hotel has far fewer). */
export const templateChoicesQuery = () =>
  queryOptions({
    queryKey: ['templates', 'scenario-choices'],
    queryFn: async ({ signal }) =>
      (await request(templatesApi.list, { query: { sort: 'name', page: 1, pageSize: 100 }, signal })).items.map(
        (tpl) => ({
          value: tpl.id,
          label: tpl.name,
        }),
      ),
    staleTime: 30_000,
  });
