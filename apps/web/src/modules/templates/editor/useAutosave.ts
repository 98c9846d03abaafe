import type { TTemplate, TTemplateContents } from '@yado/contracts/templates';
import { useRef } from 'react';
import { isApiError } from '../../../lib/http/ApiError';
import { useAutosave as useSharedAutosave } from '../../ui/hooks/useAutosave';
import { contentsPayload, updateTemplate, type TUpdateTemplate } from '../api/templatesCalls';

export { AUTOSAVE_DELAY_MS, type TSaveState } from '../../ui/hooks/useAutosave';

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
  const version = useRef(template.version);
  return useSharedAutosave<TDetails>({
    revision,
    enabled,
    isStale: (error) => isApiError(error) && error.code === 'template_stale',
    save: async (details, changed) => {
      const saved = await updateTemplate(template.id, {
        version: version.current,
        ...details,
        ...(changed ? { contents: contentsPayload(contents) } : {}),
      });
      version.current = saved.version;
      onSaved(saved);
    },
  });
}
