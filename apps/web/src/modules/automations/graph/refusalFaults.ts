import { GRAPH_FAULTS, type TGraphFaultCode } from '@yado/contracts/scenarios';
import { isApiError } from '../../../lib/http/ApiError';

const isFaultCode = (code: string): code is TGraphFaultCode => (GRAPH_FAULTS as readonly string[]).includes(code);

/**
 * The faults a refused run names, to mark on the nodes: the server answers scenario_invalid with
 * one field per faulty node (`nodes.<id>`) and the whole workflow's fault under `workflow`.
 */
export function refusalFaults(
  error: unknown,
  nodeIds: readonly string[],
): { nodeId: string | null; code: TGraphFaultCode }[] {
  if (!isApiError(error) || !error.fields) return [];
  const ids = new Set(nodeIds);
  return Object.entries(error.fields).flatMap(([key, field]) => {
    if (!isFaultCode(field.code)) return [];
    const nodeId = key.startsWith('nodes.') ? key.slice('nodes.'.length) : null;
    return [{ nodeId: nodeId !== null && ids.has(nodeId) ? nodeId : null, code: field.code }];
  });
}
