import { readInTenant, statementOf } from '../../db/client.ts';
import type { TRuntime } from '../../runtime.ts';
import { TOTAL_CAP } from './customer-operations.ts';
import { brandsWithCustomers, countCustomersQuery, filterCondition, selectCustomersQuery } from './queries.ts';

/** As many as the API's pool holds (db/client.ts): each connection prepares its own statements. */
const CONNECTIONS = 10;
const PAGE = 50;

/**
 * The first minute after a start, made like the next ones (docs/benchmarks.md, "A warm start").
 * The first requests of a fresh process paid for opening pool connections (TCP, authentication),
 * preparing the list's statements on each connection, and reading the list's index pages into
 * PostgreSQL's buffers after a restart of the database or a quiet night. Here, in the background
 * after the server listens (so /healthz is not delayed), each brand's first page and capped count
 * are read once per pool connection, as a brand admin's list reads them: the same statements,
 * hence the same prepared names. It reads a few hundred index pages per brand and writes nothing.
 */
export async function warmCustomerList(rt: TRuntime): Promise<void> {
  const db = rt.database.db;
  const connections = rt.database.kind === 'postgres' ? CONNECTIONS : 1;
  for (const brandId of await brandsWithCustomers(db)) {
    const scope = { host: { level: 'brand', id: brandId } } as const;
    const filter = filterCondition(scope, { sort: '-created_at' });
    const statements = [
      statementOf(db, selectCustomersQuery(db, scope, filter, '-created_at', PAGE + 1)),
      statementOf(db, countCustomersQuery(filter, TOTAL_CAP)),
    ];
    await Promise.all(
      Array.from({ length: connections }, () => readInTenant(db, { scopeAll: false, brandId }, [], statements)),
    );
  }
}
