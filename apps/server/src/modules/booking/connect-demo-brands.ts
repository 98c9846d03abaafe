import { DEMO_BOOKING_ACCOUNTS } from '@yado/booking-sim';
import { eq } from 'drizzle-orm';
import { sealSecret } from '../../crypto/secret-box.ts';
import { withTenant } from '../../db/client.ts';
import { hosts } from '../../db/schema.ts';
import type { TRuntime } from '../../runtime.ts';
import { localClock } from './daily-sync.ts';
import { enqueueSync } from './enqueue-sync.ts';
import { saveConnection } from './queries.ts';

/** The demo brands and the simulator's demo accounts that match them hotel for hotel. */
const DEMO_CONNECTIONS = [
  { brandSlug: 'sakura-hotels', accountId: 'DBK-100234' },
  { brandSlug: 'harbor-view', accountId: 'DBK-100871' },
] as const;

/**
 * On the first start of the embedded product, connects the demo brands to their accounts in the
 * in-process simulator and queues their first sync, so the demo has its customers and bookings.
 * `syncedByCaller`: brands (by slug) whose first sync the caller runs itself (the demo history).
 */
export async function connectDemoBrands(rt: TRuntime, syncedByCaller: string[] = []): Promise<void> {
  for (const demo of DEMO_CONNECTIONS) {
    const account = DEMO_BOOKING_ACCOUNTS.find((a) => a.id === demo.accountId);
    const [brand] = await withTenant(rt.database.db, { scopeAll: true, brandId: null }, (tx) =>
      tx.select({ id: hosts.id, timezone: hosts.timezone }).from(hosts).where(eq(hosts.slug, demo.brandSlug)),
    );
    if (!account || !brand) continue;
    await withTenant(rt.database.db, { scopeAll: false, brandId: brand.id }, (tx) =>
      saveConnection(tx, {
        brandId: brand.id,
        accountId: account.id,
        accountName: account.name,
        apiKeyEncrypted: sealSecret(account.apiKey, rt.config.dataEncryptionKey),
        hotels: account.hotels.map((h) => ({ code: h.code, name: h.name })),
        connectedBy: null,
        lastDailyOn: localClock(new Date(), brand.timezone).day,
      }),
    );
    if (!syncedByCaller.includes(demo.brandSlug)) await enqueueSync(rt, { brandId: brand.id, trigger: 'connect' });
  }
}
