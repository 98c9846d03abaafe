import { entitlementsFor } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccess } from '../../http/route.ts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const LEVELS = { brand: 'sakura-hotels', hotel_group: 'sakura-kanto', hotel: 'sakura-shinjuku' } as const;
const ROLES = ['admin', 'staff', 'viewer'] as const;
/** The demo accounts cover some of the nine; the others are arranged below. */
const DEMO_USERS: Record<string, string> = {
  'brand admin': DEMO.brandAdmin,
  'hotel_group admin': DEMO.groupAdmin,
  'hotel admin': DEMO.hotelAdmin,
  'hotel staff': DEMO.hotelStaff,
  'hotel viewer': DEMO.hotelViewer,
};

/** A user whose only role is `role` at `slug`, signing in with the demo password. */
async function arrangeUser(slug: string, role: string, email: string) {
  await s.sql(
    `insert into users (email, first_name, last_name, password_hash, original_host_id)
     select $1, 'Matrix', 'Probe', (select password_hash from users where email = $3), h.id from hosts h where h.slug = $2`,
    [email, slug, DEMO.hotelStaff],
  );
  await s.sql(
    `insert into role_assignments (user_id, host_id, brand_id, role, is_default, origin)
     select u.id, h.id, h.brand_id, $3, true, 'original' from users u, hosts h where u.email = $1 and h.slug = $2`,
    [email, slug, role],
  );
}

/** Refusals by level that an area makes after the entitlement check, by error code: the areas. */
const LEVEL_RULES: Record<string, string[]> = {
  booking_brand_only: ['booking'],
  // Domains are the brand's: hotel groups and hotels read them; the platform has no sending identity.
  domain_brand_only: ['sending'],
  sending_host_only: ['sending'],
  // The relay account is the brand's (issue 25): only the brand sets its webhooks.
  webhook_brand_only: ['deliverability'],
  // The suppression list is the brand's (issue 25): hotels and groups do not read it.
  suppressions_brand_only: ['suppressions'],
  // Deliverability per sending domain: the brand's figures, read at the brand level.
  domain_deliverability_brand_only: ['deliverability'],
  // A campaign's protection thresholds are the brand's (issue 25): set and read at the brand level.
  protection_brand_only: ['deliverability'],
};

/**
 * Areas that, past the entitlement, admit only a host's admins (codes and the areas that answer
 * them): a suppression is lifted or added by an admin, as issue 25 asks, though staff may change a
 * guest's email status.
 */
const ROLE_RULES: Record<string, string[]> = {
  suppression_admin_only: ['suppressions'],
};

/** Calls `each` on every item, `width` at a time. */
async function eachAtOnce<T>(items: T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await each(items[next++] as T);
    }),
  );
}

type TGranted = ReturnType<typeof entitlementsFor>;

/** Whether the matrix lets a holder of `granted` past a route's access rule (areas may refuse after). */
function mayCall(access: TAccess, granted: TGranted): boolean {
  if (access === 'granduser' || typeof access !== 'object') return false;
  if ('entitlement' in access) return granted[access.entitlement];
  return 'anyOf' in access && access.anyOf.some((key) => granted[key]);
}

describe('every route with an entitlement', () => {
  // A download link's route takes no bearer token; customers.int.test.ts checks its entitlement.
  const routes = () =>
    s.app.registeredRoutes.filter(
      (r) => (typeof r.access === 'object' && !('link' in r.access)) || r.access === 'granduser',
    );

  // One test per level and role (each a few hundred requests, four at a time): a slow machine
  // meets each test's time limit, and a failure names whom it refused or let in.
  for (const [level, slug] of Object.entries(LEVELS) as [keyof typeof LEVELS, string][]) {
    for (const role of ROLES) {
      it(`refuses a ${level} ${role} exactly what the matrix denies`, async () => {
        expect(routes().length).toBeGreaterThan(30);
        let email = DEMO_USERS[`${level} ${role}`];
        if (!email) {
          email = `matrix.${level}.${role}@probe.yado.jp`;
          await arrangeUser(slug, role, email);
        }
        const { token } = await s.login(email);
        const me = await s.call('GET', '/v1/auth/me', { token });
        expect(me.body.data.meta, `${level} ${role}`).toMatchObject({ level, role });
        const granted = entitlementsFor(level, role, false);
        await eachAtOnce(routes(), 4, async (r) => {
          const may = mayCall(r.access, granted);
          // An unknown id and an empty body: the access rule is checked before either.
          const path = r.path.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000');
          const res = await s.call(r.method, path, { token, body: r.method === 'GET' ? undefined : {} });
          const what = `${level} ${role}: ${r.method} ${r.path}`;
          if (may && LEVEL_RULES[res.body?.error?.code]?.includes(r.path.split('/')[2] ?? '')) {
            // The entitlement lets the role in; the area then refuses this level with its own
            // specified message (only a brand connects the booking system).
            expect(level, what).not.toBe('brand');
          } else if (may && ROLE_RULES[res.body?.error?.code]?.includes(r.path.split('/')[2] ?? '')) {
            expect(role, what).not.toBe('admin');
          } else if (may) {
            expect(res.status, what).not.toBe(403);
            expect(res.status, what).toBeLessThan(500);
          } else {
            expect(res.status, what).toBe(403);
            expect(res.body.data, what).toBeUndefined();
          }
        });
      });
    }
  }

  // Each test above asks every route; this says the matrix they follow both refuses and allows
  // many of them, so neither side of it goes untried (it needs no request, so it runs alone too).
  it('has both sides: many routes refused and many allowed across the nine', () => {
    let refused = 0;
    let allowed = 0;
    for (const level of Object.keys(LEVELS) as (keyof typeof LEVELS)[])
      for (const role of ROLES) {
        const granted = entitlementsFor(level, role, false);
        for (const r of routes()) {
          if (mayCall(r.access, granted)) allowed++;
          else refused++;
        }
      }
    expect(refused).toBeGreaterThan(50);
    expect(allowed).toBeGreaterThan(50);
  });
});
