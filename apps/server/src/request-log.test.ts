import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLog, SLOW_REQUEST_MS } from './app.ts';

/** The request log's levels: what LOG_LEVEL=info (the default) keeps of each request. */
describe('the request log', () => {
  const lines: { level: string; message: string }[] = [];
  const log = Object.fromEntries(
    ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].map((level) => [
      level,
      (_fields: unknown, message: string) => void lines.push({ level, message }),
    ]),
  );
  const request = { log, url: '/healthz', method: 'GET' } as unknown as FastifyRequest;
  const reply = (statusCode: number, elapsedTime: number) =>
    ({ log, statusCode, elapsedTime }) as unknown as FastifyReply;
  const levelOf = (statusCode: number, elapsedTime: number, error: Error | null = null) => {
    lines.length = 0;
    new RequestLog().requestCompleted(error, request, reply(statusCode, elapsedTime));
    return lines.map((l) => l.level);
  };

  it('writes an ordinary request, a /healthz poll included, at debug, arriving and answered', () => {
    lines.length = 0;
    new RequestLog().incomingRequest(request);
    expect(lines.map((l) => l.level)).toEqual(['debug']);
    expect(levelOf(200, 3)).toEqual(['debug']);
    expect(levelOf(404, 3)).toEqual(['debug']);
  });

  it('keeps a request slower than a second at info, and a server error at error', () => {
    expect(SLOW_REQUEST_MS).toBe(1000);
    expect(levelOf(200, 1001)).toEqual(['info']);
    expect(levelOf(200, 1000)).toEqual(['debug']);
    expect(levelOf(500, 3)).toEqual(['error']);
    expect(levelOf(200, 3, new Error('stream broke'))).toEqual(['error']);
  });
});
