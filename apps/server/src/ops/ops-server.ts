import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_CONTENT_TYPE, scrape } from '../metrics/metrics.ts';
import { readiness } from '../modules/health/readiness.ts';
import type { TRuntime } from '../runtime.ts';

export interface TOpsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The operations listener of every process, API and worker alike: GET /metrics (Prometheus text),
 * /healthz (alive) and /readyz (can serve; 503 with the failing check otherwise). On METRICS_HOST
 * (loopback by default) at METRICS_PORT, apart from the public port, so the metrics are never
 * served through the reverse proxy. A worker has no other listener: this is where its health is asked.
 */
export async function startOpsServer(rt: TRuntime): Promise<TOpsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    const json = (status: number, body: unknown) => answer(status, 'application/json', JSON.stringify(body));
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return json(405, { error: { code: 'method_not_allowed' } });
    const work = async () => {
      if (path === '/metrics') return answer(200, METRICS_CONTENT_TYPE, await scrape(rt));
      if (path === '/healthz') return json(200, { status: 'ok' });
      if (path === '/readyz') {
        const ready = await readiness(rt);
        return json(ready.ready ? 200 : 503, { status: ready.ready ? 'ready' : 'not_ready', ...ready.checks });
      }
      return json(404, { error: { code: 'not_found' } });
    };
    work().catch((error: unknown) => {
      rt.log.error({ err: error, path }, 'operations listener failed');
      if (!response.headersSent) json(500, { error: { code: 'internal' } });
      else response.end();
    });
  });
  const { host, port } = rt.config.metrics;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
