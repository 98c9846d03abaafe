import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The lowest port the kernel hands out for a bind to port 0 (Linux's ip_local_port_range), where
 * readable; 32768 is Linux's default.
 */
function ephemeralFloor(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 12_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}
const ports = { floor: ephemeralFloor(), given: new Set<number>() };

/**
 * A free loopback port for a process still to start (the production layout's, the e2e layer's
 * products), taken at random below the ephemeral range:
 * one taken there by a bind to port 0 could be handed meanwhile to another test's server (CI once
 * saw a worker fail with EADDRINUSE on its metrics port), and a process started again after a
 * SIGKILL keeps its port free only if nothing else binds to it. Never the same port twice here.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (ports.floor - 10_000));
    if (ports.given.has(port)) continue;
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await new Promise((r) => server.close(r));
    ports.given.add(port);
    return port;
  }
}
