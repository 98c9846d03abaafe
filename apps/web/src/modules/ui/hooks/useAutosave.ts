import { useCallback, useEffect, useRef, useState } from 'react';

export type TSaveState = 'saved' | 'unsaved' | 'saving' | 'failed' | 'stale';

/** A pause in editing this long saves the work. */
export const AUTOSAVE_DELAY_MS = 1000;

export interface TAutosaveOptions<TDetails> {
  /** Counts the user's changes; a revision not yet saved is saved after a pause. */
  revision: number;
  /** False while the work cannot be saved (read-only, or not ready to be: a campaign without a name). */
  enabled: boolean;
  /** Saves what is on screen now; `details` are what `flush` was given, `changed` whether there are edits to save. */
  save: (details: TDetails | undefined, changed: boolean) => Promise<void>;
  /** A refusal because the work changed elsewhere (the version last seen is stale): nothing more is sent. */
  isStale?: (error: unknown) => boolean;
}

/**
 * Saves a second after the last change, one save at a time (the template builder's way, shared
 * by the scenario and campaign editors). A save refused as stale stops autosave (state `stale`)
 * rather than overwrite another tab's work. `flush` saves now (before a run, a send, a step) and
 * may carry details; `isDirty` says at once whether a change is not saved yet.
 */
export function useAutosave<TDetails = never>({ revision, enabled, save, isStale }: TAutosaveOptions<TDetails>) {
  const [state, setState] = useState<TSaveState>('saved');
  const savedRevision = useRef(revision);
  const latest = useRef(revision);
  latest.current = revision;
  const running = useRef<Promise<void> | null>(null);
  const saveRef = useRef(save);
  saveRef.current = save;
  const isStaleRef = useRef(isStale);
  isStaleRef.current = isStale;
  const stale = useRef(false);

  const flush = useCallback(async (details?: TDetails): Promise<void> => {
    while (running.current) await running.current;
    if (stale.current) return;
    const saving = latest.current;
    if (saving === savedRevision.current && details === undefined) return;
    const run = (async () => {
      setState('saving');
      try {
        await saveRef.current(details, saving !== savedRevision.current);
        savedRevision.current = Math.max(savedRevision.current, saving);
        setState(latest.current === savedRevision.current ? 'saved' : 'unsaved');
      } catch (error) {
        if (isStaleRef.current?.(error)) {
          stale.current = true;
          setState('stale');
        } else {
          setState('failed');
        }
        throw error;
      }
    })();
    running.current = run
      .finally(() => {
        running.current = null;
      })
      .catch(() => undefined);
    await run;
  }, []);

  useEffect(() => {
    if (revision === savedRevision.current || stale.current) return;
    // A change not saved says so even while it cannot be saved yet (a campaign without a name).
    setState((s) => (s === 'saving' ? s : 'unsaved'));
    if (!enabled) return;
    const timer = setTimeout(() => {
      flush().catch(() => undefined);
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, revision, flush]);

  /** Marks what is on screen as saved without a save (a reload of the server's copy). */
  const markSaved = useCallback(() => {
    savedRevision.current = latest.current;
    setState('saved');
  }, []);
  const isDirty = useCallback(() => latest.current !== savedRevision.current, []);

  return { state, flush, markSaved, isDirty };
}
