import { eq, inArray } from 'drizzle-orm';
import { withTenant, type TTx } from '../db/client.ts';
import { hosts, sendingDomains } from '../db/schema.ts';
import { publishRecordSet } from '../dns/embedded-dns.ts';
import type { TRuntime } from '../runtime.ts';
import { afterCheck, createDomain, lookUpRecords, namesOf } from '../modules/sending/domains.ts';
import { expectedRecords } from '../modules/sending/check-records.ts';
import { saveCheck, upsertSettingsRow } from '../modules/sending/queries.ts';

export const DEMO_DOMAINS = { verified: 'sakura-hotels.example.jp', unverified: 'harborview.example.com' } as const;

/**
 * The demo's sending identity, on the first start of the embedded product: さくらホテルズ owns a
 * domain whose records the embedded DNS server publishes and which is verified through it, and its
 * campaign email settings, so campaigns can be sent from the demo; Harbor View Hotels owns a
 * domain with nothing published yet, to try the flow.
 */
export async function seedDemoSending(rt: TRuntime): Promise<void> {
  const db = rt.database.db;
  const brands = await withTenant(db, { scopeAll: true, brandId: null }, (tx) =>
    tx
      .select({ id: hosts.id, slug: hosts.slug })
      .from(hosts)
      .where(inArray(hosts.slug, ['sakura-hotels', 'harbor-view'])),
  );
  const sakura = brands.find((b) => b.slug === 'sakura-hotels')?.id;
  const harbor = brands.find((b) => b.slug === 'harbor-view')?.id;
  if (!sakura || !harbor) return;
  // Once: the embedded product's first start seeds it, and a test that asks for it again (on the
  // embedded database, whose every start is a first one) finds it there.
  const [seeded] = await withTenant(db, { scopeAll: false, brandId: sakura }, (tx) =>
    tx.select({ id: sendingDomains.id }).from(sendingDomains).where(eq(sendingDomains.domain, DEMO_DOMAINS.verified)),
  );
  if (seeded) return;
  const row = await createDomain(rt, { brandId: sakura, domain: DEMO_DOMAINS.verified, createdBy: null });
  for (const record of expectedRecords(row, namesOf(rt.config)))
    await publishRecordSet(db, { name: record.name, type: record.type, values: [record.value] });
  const now = new Date();
  const verification = await lookUpRecords(rt.config, row, now);
  const inBrand =
    (brandId: string) =>
    <T>(fn: (tx: TTx) => Promise<T>) =>
      withTenant(db, { scopeAll: false, brandId }, fn);
  await inBrand(sakura)((tx) =>
    saveCheck(tx, row.id, { ...afterCheck(row, verification, now), verifyAvailableAt: now }),
  );
  if (verification.state !== 'verified')
    rt.log.warn('the demo sending domain did not verify against the embedded DNS server');
  await inBrand(sakura)((tx) =>
    upsertSettingsRow(tx, {
      hostId: sakura,
      brandId: sakura,
      senderEmail: `info@${DEMO_DOMAINS.verified}`,
      senderName: 'さくらホテルズ',
      unsubscribedMessage: 'メール配信を停止しました。これまでご購読いただきありがとうございました。',
      unsubscribedMessageEn: 'You have been unsubscribed from our emails. Thank you for reading them.',
      footerSenderName: 'さくらホテルズ株式会社',
      footerPostalAddress: '〒100-0005 東京都千代田区丸の内1-1-1',
      defaultLanguage: 'ja',
    }),
  );
  await createDomain(rt, { brandId: harbor, domain: DEMO_DOMAINS.unverified, createdBy: null });
  await inBrand(harbor)((tx) =>
    upsertSettingsRow(tx, {
      hostId: harbor,
      brandId: harbor,
      senderName: 'Harbor View Hotels',
      unsubscribedMessage: 'メール配信を停止しました。ニュースをお読みいただきありがとうございました。',
      unsubscribedMessageEn: 'You have been unsubscribed. Thank you for reading our news.',
      footerSenderName: 'Harbor View Hotels Co., Ltd.',
      footerPostalAddress: '1-1 Meriken Park, Chuo-ku, Kobe, Hyogo 650-0042, Japan',
      defaultLanguage: 'en',
    }),
  );
}
