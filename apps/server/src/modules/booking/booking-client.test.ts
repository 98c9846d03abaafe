import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createDbkClient, DbkError } from './booking-client.ts';

/** A booking system that answers from a script, one answer per call, and counts the calls. */
let server: Server | null = null;
async function scripted(answers: { status: number; headers?: Record<string, string>; body: unknown }[]) {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, seen };
}
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(null)));
  server = null;
});

const verified = { data: { ok: true, account_id: 'DBK-1', account_name: 'x', hotels: [], verified_at: '' } };

describe('booking system client', () => {
  it('retries after a 429 (waiting its Retry-After), then goes on', async () => {
    const { url, seen } = await scripted([
      { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'rate_limited' } } },
      { status: 200, body: verified },
    ]);
    const client = createDbkClient({ baseUrl: url, apiKey: 'k1', attempts: 3, retryBaseMs: 1 });
    expect((await client.verify()).account_id).toBe('DBK-1');
    expect(seen).toEqual(['Bearer k1', 'Bearer k1']);
  });

  it('retries server errors up to its attempts, then fails with the status', async () => {
    const { url, seen } = await scripted([{ status: 503, body: { error: { code: 'service_unavailable' } } }]);
    const client = createDbkClient({ baseUrl: url, apiKey: 'k1', attempts: 3, retryBaseMs: 1 });
    await expect(client.verify()).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(seen).toHaveLength(3);
  });

  it('does not retry a refusal', async () => {
    const { url, seen } = await scripted([{ status: 401, body: { error: { code: 'unauthorized' } } }]);
    const client = createDbkClient({ baseUrl: url, apiKey: 'k1', attempts: 5, retryBaseMs: 1 });
    const error = await client.verify().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbkError);
    expect((error as DbkError).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});
