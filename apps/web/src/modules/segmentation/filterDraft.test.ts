import {
  FILTER_MAX_CONDITIONS,
  type TFilter,
  type TFilterCondition,
  type TFilterGroup,
} from '@yado/contracts/segments';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http/ApiError';
import {
  canAddSubgroup,
  checkDraft,
  conditionCount,
  filterDraftReducer,
  itemAt,
  marksFromError,
  newFilter,
  placeOf,
  type TDraftAction,
} from './filterDraft';

const run = (filter: TFilter, ...actions: TDraftAction[]) => actions.reduce(filterDraftReducer, filter);
const condition = (filter: TFilter, path: string) => itemAt(filter, path) as TFilterCondition;
const group = (filter: TFilter, path: string) => itemAt(filter, path) as TFilterGroup;

describe('filter draft', () => {
  it('builds two groups joined by or, each with its own conditions, and keeps console ids', () => {
    const filter = run(
      newFilter(),
      { type: 'set_field', path: 'groups.0.items.0', field: 'lastName' },
      { type: 'set_value', path: 'groups.0.items.0', value: 'Sato' },
      { type: 'add_group' },
      { type: 'set_join', join: 'or' },
      { type: 'set_field', path: 'groups.1.items.0', field: 'amount' },
      { type: 'set_operator', path: 'groups.1.items.0', operator: 'greater_than' },
      { type: 'set_value', path: 'groups.1.items.0', value: 50000 },
      { type: 'add_condition', path: 'groups.1' },
    );
    expect(filter.join).toBe('or');
    expect(filter.groups).toHaveLength(2);
    expect(condition(filter, 'groups.0.items.0')).toMatchObject({ field: 'lastName', operator: 'is', value: 'Sato' });
    expect(condition(filter, 'groups.1.items.0')).toMatchObject({
      field: 'amount',
      operator: 'greater_than',
      value: 50000,
    });
    // A condition added after a booking condition is a booking condition too.
    expect(condition(filter, 'groups.1.items.1').field).toBe('hotel');
    // After a customer condition, the next starts with no field, as the first does.
    expect(condition(run(filter, { type: 'add_condition', path: 'groups.0' }), 'groups.0.items.1').field).toBe('');
    const ids = [filter.groups[0]!.id, filter.groups[1]!.id, condition(filter, 'groups.1.items.1').id];
    expect(new Set(ids).size).toBe(3);
  });

  it('resets operator and value when the field changes type, and never carries choices across fields', () => {
    let filter = run(newFilter(), { type: 'set_field', path: 'groups.0.items.0', field: 'hotel' });
    expect(condition(filter, 'groups.0.items.0')).toMatchObject({ operator: 'is', value: [] });
    filter = run(
      filter,
      { type: 'set_value', path: 'groups.0.items.0', value: ['0b5c0a52-6c1e-4f3e-9f57-2f2f6f1f0a01'] },
      { type: 'set_field', path: 'groups.0.items.0', field: 'roomType' },
    );
    expect(condition(filter, 'groups.0.items.0').value).toEqual([]);
    filter = run(filter, { type: 'set_field', path: 'groups.0.items.0', field: 'checkInDate' });
    expect(condition(filter, 'groups.0.items.0')).toMatchObject({ operator: 'is', value: '' });
  });

  it('keeps a typed value across operators that take the same kind of value, and not otherwise', () => {
    let filter = run(
      newFilter(),
      { type: 'set_field', path: 'groups.0.items.0', field: 'amount' },
      { type: 'set_value', path: 'groups.0.items.0', value: 50000 },
      { type: 'set_operator', path: 'groups.0.items.0', operator: 'greater_than' },
    );
    expect(condition(filter, 'groups.0.items.0').value).toBe(50000);
    filter = run(filter, { type: 'set_operator', path: 'groups.0.items.0', operator: 'between' });
    expect(condition(filter, 'groups.0.items.0').value).toEqual(['', '']);
    filter = run(
      filter,
      { type: 'set_field', path: 'groups.0.items.0', field: 'bookingDate' },
      { type: 'set_operator', path: 'groups.0.items.0', operator: 'in_last_days' },
      { type: 'set_value', path: 'groups.0.items.0', value: 365 },
      { type: 'set_operator', path: 'groups.0.items.0', operator: 'in_next_days' },
    );
    expect(condition(filter, 'groups.0.items.0').value).toBe(365);
    filter = run(filter, { type: 'set_operator', path: 'groups.0.items.0', operator: 'month_is' });
    expect(condition(filter, 'groups.0.items.0').value).toBeNull();
  });

  it('nests groups to three levels and stops at 50 conditions', () => {
    let filter = run(newFilter(), { type: 'add_subgroup', path: 'groups.0' });
    expect(canAddSubgroup(filter, 'groups.0.items.1')).toBe(true);
    filter = run(filter, { type: 'add_subgroup', path: 'groups.0.items.1' });
    expect(group(filter, 'groups.0.items.1.items.1').kind).toBe('group');
    expect(canAddSubgroup(filter, 'groups.0.items.1.items.1')).toBe(false);
    expect(run(filter, { type: 'add_subgroup', path: 'groups.0.items.1.items.1' })).toEqual(filter);
    for (let i = conditionCount(filter); i < FILTER_MAX_CONDITIONS; i += 1) {
      filter = run(filter, { type: 'add_condition', path: 'groups.0' });
    }
    expect(conditionCount(filter)).toBe(FILTER_MAX_CONDITIONS);
    expect(run(filter, { type: 'add_condition', path: 'groups.0' })).toBe(filter);
    expect(run(filter, { type: 'add_group' })).toBe(filter);
  });

  it('removes a condition and a whole group by path', () => {
    const filter = run(
      newFilter(),
      { type: 'add_condition', path: 'groups.0' },
      { type: 'add_group' },
      { type: 'remove', path: 'groups.0.items.0' },
    );
    expect(group(filter, 'groups.0').items).toHaveLength(1);
    const without = run(filter, { type: 'remove', path: 'groups.0' });
    expect(without.groups).toHaveLength(1);
    expect(without.groups[0]!.id).toBe(filter.groups[1]!.id);
  });
});

describe("a new filter's first condition", () => {
  it('has no field until the user chooses one (none is chosen for them), and is unfinished, not wrong, until then', () => {
    const fresh = newFilter();
    expect(condition(fresh, 'groups.0.items.0')).toMatchObject({ field: '', operator: '', value: null });
    const check = checkDraft(fresh);
    expect(check).toMatchObject({ complete: false, wrong: false });
    // Shown once the user tries to save without choosing: "Choose a field."
    expect(check.marks.get('groups.0.items.0')).toEqual(['unknown_field']);
    expect(check.wrongMarks.size).toBe(0);
    const chosen = run(fresh, { type: 'set_field', path: 'groups.0.items.0', field: 'checkInDate' });
    expect(condition(chosen, 'groups.0.items.0')).toMatchObject({ field: 'checkInDate', operator: 'is', value: '' });
  });
});

describe('filter faults and their places', () => {
  it('tells values still to fill in from a wrong arrangement, at the condition it concerns', () => {
    const unfilled = checkDraft(newFilter());
    expect(unfilled).toMatchObject({ complete: false, wrong: false });
    expect([...unfilled.marks.keys()]).toEqual(['groups.0.items.0']);

    const reversed = run(
      newFilter(),
      { type: 'set_field', path: 'groups.0.items.0', field: 'amount' },
      { type: 'set_operator', path: 'groups.0.items.0', operator: 'between' },
      { type: 'set_value', path: 'groups.0.items.0', value: [90000, 50000] },
    );
    const check = checkDraft(reversed);
    expect(check).toMatchObject({ complete: false, wrong: true });
    expect(check.marks.get('groups.0.items.0')).toEqual(['between_order']);

    const empty = run(newFilter(), { type: 'remove', path: 'groups.0.items.0' });
    expect(checkDraft(empty).marks.get('groups.0')).toEqual(['empty_group']);

    const done = run(
      newFilter(),
      { type: 'set_field', path: 'groups.0.items.0', field: 'lastName' },
      { type: 'set_value', path: 'groups.0.items.0', value: 'Sato' },
    );
    expect(checkDraft(done)).toMatchObject({ complete: true, wrong: false });
  });

  it('places a fault path on its condition, group or the whole filter', () => {
    expect(placeOf('groups.1.items.0.value')).toBe('groups.1.items.0');
    expect(placeOf('filter.groups.1.items.2.items.0.operator')).toBe('groups.1.items.2.items.0');
    expect(placeOf('groups.0.items')).toBe('groups.0');
    expect(placeOf('groups.0.items.1.value.1')).toBe('groups.0.items.1');
    expect(placeOf('groups')).toBe('filter');
  });

  it("marks the places the server's refusal names, and ignores refusals about something else", () => {
    const refusal = new ApiError(400, 'filter_invalid', 'Oops! Please double-check the filter logic arrangement.', {
      'filter.groups.1.items.0.value': { code: 'between_order', message: 'between_order' },
      'filter.groups.0.items': { code: 'filter_invalid', message: 'empty_group' },
    });
    const marks = marksFromError(refusal);
    expect(marks && Object.fromEntries(marks)).toEqual({
      'groups.1.items.0': ['between_order'],
      'groups.0': ['empty_group'],
    });
    expect(
      marksFromError(
        new ApiError(409, 'segment_name_taken', '', { name: { code: 'segment_name_taken', message: '' } }),
      ),
    ).toBeNull();
    expect(Object.fromEntries(marksFromError(new ApiError(400, 'filter_invalid', ''))!)).toEqual({ filter: [] });
  });
});
