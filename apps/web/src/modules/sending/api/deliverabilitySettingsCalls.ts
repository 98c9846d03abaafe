import * as deliverabilityApi from '@yado/contracts/deliverability';
import type { TProtection, TRelayProvider, TRelayWebhook } from '@yado/contracts/deliverability';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

/** The brand's protection thresholds and relay webhooks (issue 25), set in Settings by its admins. */
export const protectionQuery = queryOptions({
  queryKey: ['deliverability', 'protection'],
  queryFn: ({ signal }) => request(deliverabilityApi.getProtection, { signal }),
});

export function saveProtection(values: TProtection): Promise<TProtection> {
  return request(deliverabilityApi.saveProtection, { body: values });
}

export const relayWebhooksQuery = queryOptions({
  queryKey: ['deliverability', 'relay-webhooks'],
  queryFn: ({ signal }) => request(deliverabilityApi.listRelayWebhooks, { signal }),
});

export function saveRelayWebhook(
  provider: TRelayProvider,
  body: { secret?: string | null; topicArn?: string | null },
): Promise<TRelayWebhook> {
  return request(deliverabilityApi.saveRelayWebhook, { params: { provider }, body });
}

export function deleteRelayWebhook(provider: TRelayProvider): Promise<{ deleted: boolean }> {
  return request(deliverabilityApi.deleteRelayWebhook, { params: { provider } });
}

export const protectionAlertsQuery = queryOptions({
  queryKey: ['deliverability', 'protection', 'alerts'],
  queryFn: ({ signal }) => request(deliverabilityApi.protectionAlerts, { signal }),
});
