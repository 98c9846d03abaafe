import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/client.ts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** A download link's route takes no bearer token: its link is refused, as anonymous callers are (401). */
const isLink = (access: unknown) => typeof access === 'object' && access !== null && 'link' in access;

const OTHER_BRAND = { 'x-user-role': 'admin', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' };

/** A path with its parameters filled by ids of the other brand's objects. */
function fill(path: string, ids: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? ids.id ?? '00000000-0000-0000-0000-000000000000');
}

describe('every route', () => {
  it('declares who may call it', () => {
    const declared = new Set(s.app.registeredRoutes.map((r) => `${r.method} ${r.path}`));
    const api = s.app.allRoutes.filter(
      (r) =>
        r.url.startsWith('/v1/') &&
        !r.url.startsWith('/v1/docs') &&
        r.url !== '/v1/openapi.json' &&
        r.method !== 'HEAD',
    );
    expect(api.length).toBeGreaterThan(5);
    for (const r of api) expect(declared.has(`${r.method} ${r.url}`), `${r.method} ${r.url}`).toBe(true);
  });

  it('gives a context of another brand 403 or 404 and no data', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [other] = await s.sql(`select id from hosts where slug = 'harbor-kobe'`);
    const ids = { id: other.id as string };
    let checked = 0;
    for (const r of s.app.registeredRoutes) {
      if (r.access === 'public' || isLink(r.access)) continue;
      const res = await s.call(r.method, fill(r.path, ids), {
        token,
        headers: OTHER_BRAND,
        body: r.method === 'GET' ? undefined : {},
      });
      expect([403, 404], `${r.method} ${r.path}`).toContain(res.status);
      expect(res.body.data, `${r.method} ${r.path}`).toBeUndefined();
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it("gives a user acting in their own brand nothing of another brand's objects or lists", async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const harbor = await s.sql(
      `select h.id from hosts h where h.brand_id = (select id from hosts where slug = 'harbor-view')`,
    );
    const harborUsers = await s.sql(`select u.id, u.email from users u where u.email in ($1, $2)`, [
      DEMO.harborAdmin,
      DEMO.multi,
    ]);
    const foreign = [
      ...harbor.map((h) => h.id as string),
      ...harborUsers.flatMap((u) => [u.id as string, u.email as string]),
    ];
    const [kobe] = await s.sql(`select id from hosts where slug = 'harbor-kobe'`);
    let checked = 0;
    for (const r of s.app.registeredRoutes) {
      if (r.access === 'public' || r.path === '/v1/dev/outbox') continue;
      const hasId = r.path.includes(':id');
      if (!hasId && r.method !== 'GET') continue;
      const res = await s.call(r.method, fill(r.path, { id: kobe.id }), {
        token,
        body: r.method === 'GET' ? undefined : {},
      });
      if (hasId) expect([400, 403, 404], `${r.method} ${r.path}`).toContain(res.status);
      const text = JSON.stringify(res.body);
      for (const f of foreign) expect(text.includes(f), `${r.method} ${r.path} leaks ${f}`).toBe(false);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('gives a caller without a token 401 and no data', async () => {
    for (const r of s.app.registeredRoutes) {
      if (r.access === 'public') continue;
      const res = await s.call(r.method, fill(r.path, {}), { body: r.method === 'GET' ? undefined : {} });
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(res.body.data).toBeUndefined();
    }
  });

  it('keeps the granduser-only outbox from everyone else', async () => {
    for (const email of [DEMO.brandAdmin, DEMO.hotelAdmin, DEMO.hotelViewer]) {
      const { token } = await s.login(email);
      const res = await s.call('GET', '/v1/dev/outbox', { token });
      expect(res.status).toBe(403);
    }
    const { token } = await s.login(DEMO.grand);
    expect((await s.call('GET', '/v1/dev/outbox', { token })).status).toBe(200);
  });
});

describe('row-level security', () => {
  it('is enabled and forced on every table the request role can reach', async () => {
    const rows = await s.sql(`
      select c.relname, c.relrowsecurity, c.relforcerowsecurity
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and has_table_privilege('yado_app', c.oid, 'select')`);
    expect(rows.map((r) => r.relname).sort()).toEqual(
      expect.arrayContaining(['audit_log', 'hosts', 'role_assignments', 'users']),
    );
    // Import rows are written by the owner with COPY, which forced security would refuse; the
    // request role is bound by the policy all the same (FORCE only concerns the owner).
    const ownerWritten = ['customer_import_rows'];
    for (const r of rows) {
      expect(r.relrowsecurity, r.relname).toBe(true);
      expect(r.relforcerowsecurity, r.relname).toBe(!ownerWritten.includes(r.relname));
    }
  });

  it('gives the request role no way around it and no reach into secrets', async () => {
    const [role] = await s.sql(`select rolsuper, rolbypassrls from pg_roles where rolname = 'yado_app'`);
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
    for (const table of ['refresh_tokens', 'password_reset_tokens', 'auth_failures', 'dev_outbox']) {
      const [row] = await s.sql(`select has_table_privilege('yado_app', $1, 'select') as can`, [table]);
      expect(row.can, table).toBe(false);
    }
  });

  it("stops a query that forgets to scope from reading or writing another brand's rows", async () => {
    const db = s.rt.database.db;
    const [sakura] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    const seen = await withTenant(db, { scopeAll: false, brandId: sakura.id }, async (tx) => {
      const result = await tx.execute(sql`select slug from hosts order by slug`);
      return (result as unknown as { rows: { slug: string }[] }).rows.map((r) => r.slug);
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((slug) => slug.startsWith('sakura-'))).toBe(true);

    const users = await withTenant(db, { scopeAll: false, brandId: harbor.id }, async (tx) => {
      const result = await tx.execute(sql`select email from users order by email`);
      return (result as unknown as { rows: { email: string }[] }).rows.map((r) => r.email);
    });
    expect(users).toContain(DEMO.harborAdmin);
    expect(users).toContain(DEMO.multi);
    expect(users).not.toContain(DEMO.brandAdmin);

    await expect(
      withTenant(db, { scopeAll: false, brandId: sakura.id }, (tx) =>
        tx
          .execute(sql`update hosts set name = 'taken' where id = ${harbor.id}`)
          .then((r) => r as unknown as { rowCount?: number; affectedRows?: number }),
      ),
    ).resolves.toSatisfy(
      (r: { rowCount?: number; affectedRows?: number }) => (r.rowCount ?? r.affectedRows ?? 0) === 0,
    );
    await expect(
      withTenant(db, { scopeAll: false, brandId: sakura.id }, (tx) =>
        tx.execute(
          sql`insert into hosts (level, name, slug, brand_id) values ('hotel', 'Intruder', 'intruder', ${harbor.id})`,
        ),
      ),
    ).rejects.toThrow();
    const [name] = await s.sql(`select name from hosts where id = $1`, [harbor.id]);
    expect(name.name).toBe('Harbor View Hotels');

    const all = await withTenant(db, { scopeAll: true, brandId: null }, async (tx) => {
      const result = await tx.execute(sql`select count(*)::int as n from hosts`);
      return (result as unknown as { rows: { n: number }[] }).rows[0]?.n;
    });
    const none = await withTenant(db, { scopeAll: false, brandId: null }, async (tx) => {
      const result = await tx.execute(sql`select count(*)::int as n from hosts`);
      return (result as unknown as { rows: { n: number }[] }).rows[0]?.n;
    });
    expect(all).toBe(12);
    expect(none).toBe(0);
  });

  it('ends every tenant transaction: a failure rolls back whole, and the next request on the connection runs as the owner again', async () => {
    const db = s.rt.database.db;
    const [sakura] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    await expect(
      withTenant(db, { scopeAll: false, brandId: sakura.id }, async (tx) => {
        await tx.execute(sql`update hosts set name = 'half-done' where id = ${sakura.id}`);
        throw new Error('fails after a write');
      }),
    ).rejects.toThrow('fails after a write');
    const [brand] = await s.sql(`select name from hosts where id = $1`, [sakura.id]);
    expect(brand.name).not.toBe('half-done');
    // Every connection of the pool, in turn: none keeps the role or the brand of a tenant transaction.
    const states = await Promise.all(
      Array.from({ length: 12 }, () =>
        db.execute(sql`select current_user as who, current_setting('yado.brand_id', true) as brand`),
      ),
    );
    for (const state of states) {
      const row = (state as unknown as { rows: { who: string; brand: string | null }[] }).rows[0];
      expect(row?.who).not.toBe('yado_app');
      expect(row?.brand ?? '').toBe('');
    }
    await expect(
      withTenant(db, { scopeAll: false, brandId: "x'; drop table hosts; --" }, async () => 1),
    ).rejects.toThrow();
  });
});
