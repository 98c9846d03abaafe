import type { TTemplate, TTemplateContents } from '@yado/contracts/templates';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/http/ApiError';
import { contentsPayload, updateTemplate, type TUpdateTemplate } from '../api/templatesCalls';

export type TSaveState = 'saved' | 'unsaved' | 'saving' | 'failed' | 'stale';

/** A pause in editing this long saves the template. */
export const AUTOSAVE_DELAY_MS = 1000;

type TDetails = Omit<TUpdateTemplate, 'version' | 'contents'>;

/**
 * Saves the template a second after the last change, one save at a time, with the version last
 * seen (a template changed in another tab is refused, never overwritten: state `stale`).
 * `flush` saves now (before a test send) and may carry details (name, description, ...).
 */
export function useAutosave(
  template: TTemplate,
  contents: TTemplateContents,
  revision: number,
  enabled: boolean,
  onSaved: (template: TTemplate) => void,
) {
  const [state, setState] = useState<TSaveState>('saved');
  const version = useRef(template.version);
  const savedRevision = useRef(revision);
  const latest = useRef({ contents, revision });
  latest.current = { contents, revision };
  const running = useRef<Promise<void> | null>(null);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const stale = useRef(false);

  const save = useCallback(
    async (details: TDetails = {}): Promise<void> => {
      while (running.current) await running.current;
      if (stale.current) return;
      const { contents: toSave, revision: saving } = latest.current;
      const hasDetails = Object.keys(details).length > 0;
      if (saving === savedRevision.current && !hasDetails) return;
      const run = (async () => {
        setState('saving');
        try {
          const saved = await updateTemplate(template.id, {
            version: version.current,
            ...details,
            ...(saving !== savedRevision.current ? { contents: contentsPayload(toSave) } : {}),
          });
          version.current = saved.version;
          savedRevision.current = saving;
          setState(latest.current.revision === saving ? 'saved' : 'unsaved');
          onSavedRef.current(saved);
        } catch (error) {
          if (isApiError(error) && error.code === 'template_stale') {
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
    },
    [template.id],
  );

  useEffect(() => {
    if (!enabled || revision === savedRevision.current || stale.current) return;
    setState((s) => (s === 'saving' ? s : 'unsaved'));
    const timer = setTimeout(() => {
      save().catch(() => undefined);
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, revision, save]);

  // Leaving with changes not yet saved asks first (the browser's own dialog).
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (latest.current.revision !== savedRevision.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  return { state, flush: save };
}
