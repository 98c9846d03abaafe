import * as trackingApi from '@yado/contracts/tracking';
import type { TUnsubscribePage } from '@yado/contracts/tracking';
import { request } from '../../../lib/http/request';

/** The guest's own unsubscribe from the page (no sign-in: the signed token is the authority). */
export function unsubscribeFromPage(token: string): Promise<TUnsubscribePage> {
  return request(trackingApi.publicUnsubscribe, {
    query: { token, source: 'page' },
    roleSelector: null,
    refreshOn401: false,
  });
}

export function undoUnsubscribe(token: string): Promise<TUnsubscribePage> {
  return request(trackingApi.publicUnsubscribeUndo, { query: { token }, roleSelector: null, refreshOn401: false });
}
