import {
  checkFilter,
  FILTER_FIELDS,
  FILTER_MAX_CONDITIONS,
  FILTER_MAX_DEPTH,
  FILTER_VERSION,
  isBookingField,
  OPERATORS_BY_TYPE,
  type TBookingMatch,
  type TFieldType,
  type TFilter,
  type TFilterCondition,
  type TFilterFaultCode,
  type TFilterField,
  type TFilterGroup,
  type TFilterJoin,
  type TFilterValue,
  type TOperator,
} from '@yado/contracts/segments';
import { isApiError } from '../../lib/http/ApiError';

/**
 * The filter builder edits the contract's filter document itself (DESIGN: the console edits the
 * data, never a second interpretation of it). Places are the contract's dotted paths
 * (`groups.1.items.0`), the same the server names in a refusal, so both mark the same spot.
 * Every group and condition carries a console id for stable list keys; the server ignores them.
 */

export type TItem = TFilterCondition | TFilterGroup;

let nextId = 0;
const newId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(nextId += 1).toString(36)}`;

export const fieldType = (field: TFilterField): TFieldType => FILTER_FIELDS[field].type;
export const operatorsFor = (field: TFilterField): readonly TOperator[] => OPERATORS_BY_TYPE[fieldType(field)];

/** The value a condition starts with for an operator: empty, so the user fills it in. */
export function emptyValue(field: TFilterField, operator: TOperator): TFilterValue {
  const type = fieldType(field);
  if (operator === 'between') return ['', ''];
  if (type === 'text') return '';
  if (type === 'date' && operator === 'is') return '';
  if (type === 'choice') return operator === 'all' ? null : [];
  return null;
}

/**
 * The field of a condition the user has not chosen one for yet. A new condition starts so, never
 * with a field nobody picked (it started as last name); the contract refuses it as unknown_field
 * ("Choose a field."), shown when the user saves without choosing.
 */
export const NO_FIELD = '' as TFilterField;
export const hasField = (condition: TFilterCondition) => condition.field !== NO_FIELD;

export function newCondition(field: TFilterField = NO_FIELD): TFilterCondition {
  if (field === NO_FIELD) return { kind: 'condition', id: newId('c'), field, operator: '' as TOperator, value: null };
  const operator = operatorsFor(field)[0]!;
  return { kind: 'condition', id: newId('c'), field, operator, value: emptyValue(field, operator) };
}

export function newGroup(field: TFilterField = NO_FIELD): TFilterGroup {
  return { kind: 'group', id: newId('g'), join: 'and', items: [newCondition(field)] };
}

export function newFilter(): TFilter {
  return { version: FILTER_VERSION, join: 'and', groups: [newGroup()] };
}

/** A saved document with console ids on every group and condition that lacks one. */
export function withIds(filter: TFilter): TFilter {
  const fill = (item: TItem): TItem =>
    item.kind === 'group'
      ? { ...item, id: item.id ?? newId('g'), items: item.items.map(fill) }
      : { ...item, id: item.id ?? newId('c') };
  return { ...filter, groups: filter.groups.map((g) => fill(g) as TFilterGroup) };
}

// ---------------------------------------------------------------------------------------------
// Paths

type TSegments = (string | number)[];
const split = (path: string): TSegments => path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

export function itemAt(filter: TFilter, path: string): TItem | undefined {
  let node: unknown = filter;
  for (const key of split(path)) node = (node as Record<string | number, unknown> | undefined)?.[key];
  return node as TItem | undefined;
}

/** How deep a group sits: the document's groups are level 1. */
export const levelOf = (groupPath: string) => split(groupPath).filter((p) => p === 'items').length + 1;

/** The group path holding an item (`groups.0.items.2` → `groups.0`). */
export const parentOf = (path: string) => path.replace(/\.items\.\d+$/, '');

function replaceAt(filter: TFilter, path: string, replace: (item: TItem) => TItem | null): TFilter {
  const keys = split(path);
  const rebuild = (node: unknown, rest: TSegments): unknown => {
    if (rest.length === 0) return replace(node as TItem);
    const [key, ...tail] = rest;
    if (Array.isArray(node)) {
      const next = node.map((child, i) => (i === key ? rebuild(child, tail) : child));
      return next.filter((child) => child !== null);
    }
    const record = node as Record<string, unknown>;
    return { ...record, [key as string]: rebuild(record[key as string], tail) };
  };
  return rebuild(filter, keys) as TFilter;
}

// ---------------------------------------------------------------------------------------------
// Editing

export type TDraftAction =
  | { type: 'set_join'; join: TFilterJoin }
  | { type: 'add_group' }
  | { type: 'add_subgroup'; path: string }
  | { type: 'add_condition'; path: string; field?: TFilterField }
  | { type: 'remove'; path: string }
  | { type: 'set_group_join'; path: string; join: TFilterJoin }
  | { type: 'set_bookings'; path: string; bookings: TBookingMatch }
  | { type: 'set_field'; path: string; field: TFilterField }
  | { type: 'set_operator'; path: string; operator: TOperator }
  | { type: 'set_value'; path: string; value: TFilterValue }
  | { type: 'replace'; filter: TFilter };

export function conditionCount(filter: TFilter): number {
  const count = (items: TItem[]): number =>
    items.reduce((n, item) => n + (item.kind === 'group' ? count(item.items) : 1), 0);
  return count(filter.groups);
}

export const canAddCondition = (filter: TFilter) => conditionCount(filter) < FILTER_MAX_CONDITIONS;
/** A group may hold a nested group while the nested one stays within the depth limit. */
export const canAddSubgroup = (filter: TFilter, groupPath: string) =>
  canAddCondition(filter) && levelOf(groupPath) < FILTER_MAX_DEPTH;

/** Operators whose number means the same kind of thing, so a typed value may carry over. */
const NUMBER_KINDS: readonly (readonly TOperator[])[] = [
  ['is', 'greater_than', 'less_than'],
  ['in_last_days', 'in_next_days'],
];

/** Keeps what the user typed when the new operator takes the same kind of value. */
export function carryValue(condition: TFilterCondition, operator: TOperator): TFilterValue {
  const fresh = emptyValue(condition.field, operator);
  const old = condition.value;
  if (Array.isArray(fresh)) {
    if (!Array.isArray(old)) return fresh;
    // Choices keep their list; a range keeps its two ends.
    return fresh.length === 0 || old.length === fresh.length ? old : fresh;
  }
  if (typeof fresh === 'string') return typeof old === 'string' ? old : fresh;
  if (fresh === null && typeof old === 'number') {
    const kind = NUMBER_KINDS.find((ops) => ops.includes(operator));
    const type = fieldType(condition.field);
    const sameKind = kind?.includes(condition.operator) && (type === 'number' || kind !== NUMBER_KINDS[0]);
    return sameKind ? old : fresh;
  }
  return fresh;
}

export function filterDraftReducer(filter: TFilter, action: TDraftAction): TFilter {
  switch (action.type) {
    case 'replace':
      return action.filter;
    case 'set_join':
      return { ...filter, join: action.join };
    case 'add_group':
      return canAddCondition(filter) ? { ...filter, groups: [...filter.groups, newGroup()] } : filter;
    case 'add_subgroup':
      if (!canAddSubgroup(filter, action.path)) return filter;
      return replaceAt(filter, action.path, (g) => ({
        ...(g as TFilterGroup),
        items: [...(g as TFilterGroup).items, newGroup()],
      }));
    case 'add_condition': {
      if (!canAddCondition(filter)) return filter;
      return replaceAt(filter, action.path, (g) => {
        const group = g as TFilterGroup;
        // A new condition follows the kind of the one before it: booking conditions come in runs.
        const last = [...group.items].reverse().find((i): i is TFilterCondition => i.kind === 'condition');
        const field = action.field ?? (last && isBookingField(last.field) ? 'hotel' : NO_FIELD);
        return { ...group, items: [...group.items, newCondition(field)] };
      });
    }
    case 'remove': {
      const next = replaceAt(filter, action.path, () => null);
      return next;
    }
    case 'set_group_join':
      return replaceAt(filter, action.path, (g) => ({ ...(g as TFilterGroup), join: action.join }));
    case 'set_bookings':
      return replaceAt(filter, action.path, (g) => ({ ...(g as TFilterGroup), bookings: action.bookings }));
    case 'set_field':
      return replaceAt(filter, action.path, (c) => {
        const condition = c as TFilterCondition;
        if (condition.field === action.field) return condition;
        if (action.field === NO_FIELD) return { ...condition, field: NO_FIELD, operator: '' as TOperator, value: null };
        const keepsOperator =
          hasField(condition) &&
          fieldType(condition.field) === fieldType(action.field) &&
          operatorsFor(action.field).includes(condition.operator);
        const operator = keepsOperator ? condition.operator : operatorsFor(action.field)[0]!;
        // Values of another field's choices (a hotel id as a room type) never carry over.
        const carries = keepsOperator && fieldType(action.field) !== 'choice';
        return {
          ...condition,
          field: action.field,
          operator,
          value: carries ? condition.value : emptyValue(action.field, operator),
        };
      });
    case 'set_operator':
      return replaceAt(filter, action.path, (c) => {
        const condition = c as TFilterCondition;
        return { ...condition, operator: action.operator, value: carryValue(condition, action.operator) };
      });
    case 'set_value':
      return replaceAt(filter, action.path, (c) => ({ ...(c as TFilterCondition), value: action.value }));
  }
}

/** Whether a group's direct items include booking conditions (then it counts bookings). */
export const hasBookingConditions = (group: TFilterGroup) =>
  group.items.some((item) => item.kind === 'condition' && isBookingField(item.field));

// ---------------------------------------------------------------------------------------------
// Faults and where they are shown

export interface TMark {
  codes: TFilterFaultCode[];
}

/**
 * The place a fault belongs to: the condition or group it names (`groups.0.items.1.value` →
 * `groups.0.items.1`; `groups.0.items` → `groups.0`), or `filter` for the document itself.
 */
export function placeOf(path: string): string {
  const clean = path.replace(/^(body\.)?filter\./, '');
  if (clean === 'groups' || clean === 'filter' || clean === '') return 'filter';
  return clean.replace(/\.(value|field|operator|join|bookings)(\.\d+)?$/, '').replace(/\.items$/, '');
}

/** Faults by place, from the contract's own check (the console marks them before sending). */
export function marksOf(faults: { path: string; code: TFilterFaultCode }[]): Map<string, TFilterFaultCode[]> {
  const marks = new Map<string, TFilterFaultCode[]>();
  for (const fault of faults) {
    const place = placeOf(fault.path);
    marks.set(place, [...(marks.get(place) ?? []), fault.code]);
  }
  return marks;
}

const KNOWN_FAULTS = new Set<string>([
  'too_deep',
  'too_many_conditions',
  'empty_group',
  'no_groups',
  'unknown_field',
  'unknown_operator',
  'operator_not_for_field',
  'value_wrong_type',
  'value_out_of_range',
  'value_too_long',
  'between_order',
  'bad_date',
  'unknown_choice',
]);

/**
 * The places the server named when it refused a filter ("Oops! Please double-check the filter
 * logic arrangement."): its field paths, with or without the body's `filter.` prefix. Null when
 * the refusal is not about the filter.
 */
export function marksFromError(error: unknown): Map<string, TFilterFaultCode[]> | null {
  if (!isApiError(error)) return null;
  const entries = Object.entries(error.fields ?? {}).filter(
    ([path]) => /^(body\.)?(filter\.)?groups\b/.test(path) || path === 'filter',
  );
  if (error.code !== 'filter_invalid' && entries.length === 0) return null;
  const marks = new Map<string, TFilterFaultCode[]>();
  for (const [path, field] of entries) {
    const code = (
      KNOWN_FAULTS.has(field.code) ? field.code : KNOWN_FAULTS.has(field.message) ? field.message : 'value_wrong_type'
    ) as TFilterFaultCode;
    const place = placeOf(path);
    marks.set(place, [...(marks.get(place) ?? []), code]);
  }
  if (marks.size === 0) marks.set('filter', []);
  return marks;
}

/** A value the user has not filled in yet, as opposed to one that is wrong. */
export function isUnfilled(value: TFilterValue): boolean {
  if (value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0 || value.some((v) => v === '' || v === null);
  return false;
}

export interface TDraftCheck {
  /** Every fault, by place. */
  marks: Map<string, TFilterFaultCode[]>;
  /** The faults shown while editing: all but the values still to fill in. */
  wrongMarks: Map<string, TFilterFaultCode[]>;
  /** Whether the filter can be counted and saved. */
  complete: boolean;
  /** Faults beyond values still to fill in: the arrangement itself is wrong. */
  wrong: boolean;
}

/** The faults a condition's value can have, as opposed to its field, operator or group. */
const VALUE_FAULTS: ReadonlySet<TFilterFaultCode> = new Set([
  'value_wrong_type',
  'value_out_of_range',
  'bad_date',
  'between_order',
  'unknown_choice',
]);

/** The contract's check of a draft, telling values still to fill in from wrong arrangements. */
export function checkDraft(filter: TFilter): TDraftCheck {
  const faults = checkFilter(filter);
  // A value still to fill in is not wrong yet, whatever the check calls it: an empty date is a
  // "bad date" to the contract, but the user has not typed it.
  const wrongFaults = faults.filter((fault) => {
    const item = itemAt(filter, placeOf(fault.path));
    // Nor is a field still to choose.
    if (fault.code === 'unknown_field') return !(item?.kind === 'condition' && !hasField(item));
    if (!VALUE_FAULTS.has(fault.code)) return true;
    return !(item?.kind === 'condition' && isUnfilled(item.value));
  });
  return {
    marks: marksOf(faults),
    wrongMarks: marksOf(wrongFaults),
    complete: faults.length === 0,
    wrong: wrongFaults.length > 0,
  };
}
