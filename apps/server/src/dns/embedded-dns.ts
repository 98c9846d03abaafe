import dns2 from 'dns2';
import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import type { TDb } from '../db/client.ts';
import { devDnsRecords } from '../db/schema.ts';

const { Packet } = dns2;
/** RFC 1035 response codes (dns2's typings omit its RCODE table). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;

export interface TEmbeddedDns {
  /** `127.0.0.1:port`, as node's Resolver.setServers takes it. */
  address: string;
  port: number;
  close(): Promise<void>;
}

/** A TXT string holds at most 255 bytes; longer values go out as several strings, as real zones serve DKIM keys. */
export function splitTxt(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length <= 255) return [value];
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 255) parts.push(bytes.subarray(i, i + 255).toString('utf8'));
  return parts;
}

const normalName = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** The zone as record sets, for the dev API. */
export async function listZone(db: TDb): Promise<{ name: string; type: 'TXT' | 'CNAME'; values: string[] }[]> {
  const rows = await db
    .select()
    .from(devDnsRecords)
    .orderBy(asc(devDnsRecords.name), asc(devDnsRecords.type), asc(devDnsRecords.createdAt));
  const sets = new Map<string, { name: string; type: 'TXT' | 'CNAME'; values: string[] }>();
  for (const r of rows) {
    const key = `${r.name} ${r.type}`;
    const set = sets.get(key) ?? { name: r.name, type: r.type, values: [] };
    set.values.push(r.value);
    sets.set(key, set);
  }
  return [...sets.values()];
}

/** Replaces every value of one type at one name (no values: removes them). A CNAME has one value. */
export async function publishRecordSet(
  db: TDb,
  set: { name: string; type: 'TXT' | 'CNAME'; values: string[] },
): Promise<{ name: string; type: 'TXT' | 'CNAME'; values: string[] }> {
  const name = normalName(set.name);
  const values = set.type === 'CNAME' ? set.values.slice(0, 1).map(normalName) : set.values;
  await db.transaction(async (tx) => {
    await tx.delete(devDnsRecords).where(and(eq(devDnsRecords.name, name), eq(devDnsRecords.type, set.type)));
    for (const value of values) await tx.insert(devDnsRecords).values({ name, type: set.type, value });
  });
  return { name, type: set.type, values };
}

/**
 * The embedded DNS server (dns2, UDP and TCP on one loopback port): it serves the zone that the
 * dev API publishes, so domain verification and DKIM checks work on one machine. Names it does
 * not hold get NXDOMAIN; a name that holds only other types gets an empty answer.
 */
export async function startEmbeddedDns(db: TDb, onError: (error: Error) => void, port = 0): Promise<TEmbeddedDns> {
  const handle = (request: InstanceType<typeof Packet>, send: (response: InstanceType<typeof Packet>) => unknown) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const question = request.questions[0];
    if (!question) {
      void send(response);
      return;
    }
    const name = normalName(question.name);
    db.select()
      .from(devDnsRecords)
      .where(eq(devDnsRecords.name, name))
      .orderBy(asc(devDnsRecords.createdAt))
      .then((rows) => {
        if (rows.length === 0) response.header.rcode = RCODE.NXDOMAIN;
        for (const r of rows) {
          if (
            r.type === 'CNAME' &&
            (question.type === Packet.TYPE.CNAME ||
              question.type === Packet.TYPE.TXT ||
              question.type === Packet.TYPE.A)
          ) {
            response.answers.push({
              name: question.name,
              type: Packet.TYPE.CNAME,
              class: Packet.CLASS.IN,
              ttl: 30,
              domain: r.value,
            } as never);
          } else if (r.type === 'TXT' && question.type === Packet.TYPE.TXT) {
            response.answers.push({
              name: question.name,
              type: Packet.TYPE.TXT,
              class: Packet.CLASS.IN,
              ttl: 30,
              data: splitTxt(r.value),
            } as never);
          }
        }
      })
      .catch((error: Error) => {
        response.header.rcode = RCODE.SERVFAIL;
        onError(error);
      })
      .finally(() => {
        void send(response);
      });
  };
  // UDP first on the asked (or a free) port, then TCP on the same number: resolvers retry a
  // truncated answer (a 2048-bit DKIM key) over TCP at the same address. A free UDP port may be
  // taken for TCP; then another pair is tried.
  for (let attempt = 0; ; attempt++) {
    const udp = dns2.createUDPServer(handle as never);
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(port, '127.0.0.1', () => {
        udp.off('error', reject);
        resolve();
      });
    });
    udp.on('error', onError);
    const udpPort = (udp.address() as AddressInfo).port;
    const tcp = dns2.createTCPServer(handle as never);
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(udpPort, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (port !== 0 || attempt >= 4 || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
      continue;
    }
    tcp.on('error', onError);
    return served(udp, tcp, udpPort);
  }
}

function served(
  udp: ReturnType<typeof dns2.createUDPServer>,
  tcp: ReturnType<typeof dns2.createTCPServer>,
  udpPort: number,
): TEmbeddedDns {
  return {
    address: `127.0.0.1:${udpPort}`,
    port: udpPort,
    close: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
