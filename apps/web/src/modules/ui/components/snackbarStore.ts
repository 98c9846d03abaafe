import type { TSnackbarAction } from './Snackbar';

export interface TSnackbarItem {
  id: string;
  status: 'success' | 'failed';
  text: string;
  action?: TSnackbarAction;
  durationMs: number;
}

/** At most this many at once; the oldest leaves first. */
const LIMIT = 3;

let items: TSnackbarItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();

function emit() {
  for (const listener of listeners) listener();
}

export function subscribeSnackbars(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentSnackbars(): TSnackbarItem[] {
  return items;
}

export function hideSnackbar(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  items = items.filter((item) => item.id !== id);
  emit();
}

/**
 * Shows a snackbar. A success replaces the successes still shown (only the latest news matters,
 * and a stack of them covered the page); failures stay until read, up to the limit.
 */
export function pushSnackbar(item: Omit<TSnackbarItem, 'id'>): string {
  counter += 1;
  const id = `snackbar-${counter}`;
  if (item.status === 'success') {
    for (const old of items.filter((i) => i.status === 'success')) hideSnackbar(old.id);
  }
  items = [...items, { ...item, id }];
  while (items.length > LIMIT) hideSnackbar(items[0]!.id);
  timers.set(
    id,
    setTimeout(() => hideSnackbar(id), item.durationMs),
  );
  emit();
  return id;
}
