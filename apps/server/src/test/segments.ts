import { expect } from 'vitest';
import type { TTestServer } from './harness.ts';

/**
 * A static segment of the acting host holding `customerIds`, made through the API as a user makes
 * one (create, then add members), for tests of what uses segments: campaigns, scenarios. Its id.
 */
export async function staticSegment(
  s: TTestServer,
  token: string,
  name: string,
  customerIds: string[],
  headers?: Record<string, string>,
): Promise<string> {
  const created = await s.call('POST', '/v1/segments', {
    token,
    body: { name, type: 'static' },
    ...(headers ? { headers } : {}),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  const added = await s.call('POST', `/v1/segments/${id}/members`, {
    token,
    body: { customerIds },
    ...(headers ? { headers } : {}),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return id;
}
