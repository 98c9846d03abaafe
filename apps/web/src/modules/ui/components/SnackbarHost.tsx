import { lazy, Suspense, useSyncExternalStore } from 'react';

// The toast container downloads with the first toast, not with the sign-in page.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

let requested = false;
const listeners = new Set<() => void>();

export function requestSnackbarHost(): void {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function SnackbarHost() {
  const mounted = useSyncExternalStore(subscribe, () => requested);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" limit={4} />
    </Suspense>
  );
}
