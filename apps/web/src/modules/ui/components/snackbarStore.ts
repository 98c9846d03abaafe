/** The store owns the snackbar's types; Snackbar.tsx (showSnackbar) builds on it, never the reverse. */
export interface TSnackbarAction {
  label: string;
  onClick: () => void;
}

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
 * and a stack of them covered the page); failures stay until read, up to the limit, and the same
 * failure again replaces the one shown rather than stacking a copy (a retried action that keeps failing).
 */
export function pushSnackbar(item: Omit<TSnackbarItem, 'id'>): string {
  counter += 1;
  const id = `snackbar-${counter}`;
  for (const old of items) {
    if (old.status === 'success' ? item.status === 'success' : old.status === item.status && old.text === item.text)
      hideSnackbar(old.id);
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
