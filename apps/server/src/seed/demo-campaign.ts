import { ZTemplateContent } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../db/client.ts';
import type { TRuntime } from '../runtime.ts';
import { hotelFilter } from './demo-past.ts';
import { holdUses } from '../modules/campaigns/campaign-uses.ts';

/** Long enough for the first booking sync to bring the demo's guests in before the audience is taken. */
export const DEMO_CAMPAIGN_DELAY_MINUTES = 2;

const block = (text: string) => ({
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'personalTag', attrs: { key: 'full_name' } },
        { type: 'text', text },
      ],
    },
  ],
});

/**
 * The demo's sent campaign, on the first start of the embedded product: さくらホテルズ schedules a
 * campaign to the synced guests of さくら旅館 箱根 (a dynamic segment), with a demo template, a
 * couple of minutes ahead. It then goes the real path: the worker's dispatcher starts it, it is
 * DKIM-signed with the verified demo domain and lands in the embedded sink. Quiet hours apply as
 * to any campaign (a first start in the Japanese night sends it at 08:00).
 *
 * Besides the synced guests it goes to three demo guests of the hotel (a static segment) whose
 * addresses the embedded sink answers as a relay's recipients might (mail/smtp-sink.ts): `bounce.`
 * is bounced a moment later by a DSN (no such user), `full.` by one saying the mailbox is full, and
 * `complain.` is reported as spam. So a newcomer watches issue 25's loop on the campaign just sent:
 * its statistics show a hard and a soft bounce and a complaint, the suppression list gains the dead
 * address and the complainer, and the complainer is unsubscribed.
 */
export async function seedDemoCampaign(rt: TRuntime): Promise<void> {
  const db = rt.database.db;
  const [found] = await withTenant(db, { scopeAll: true, brandId: null }, (tx) =>
    selectRows<{ brand: string; hakone: string }>(
      tx,
      sql`select b.id as brand, h.id as hakone from hosts b join hosts h on h.brand_id = b.id and h.slug = 'sakura-hakone' where b.slug = 'sakura-hotels'`,
    ),
  );
  if (!found) return;
  await withTenant(db, { scopeAll: false, brandId: found.brand }, async (tx) => {
    const filter = hotelFilter([found.hakone]);
    const [segment] = await selectRows<{ id: string }>(
      tx,
      sql`insert into segments (brand_id, host_id, name, description, type, filter)
        values (${found.brand}::uuid, ${found.brand}::uuid, '箱根にご宿泊のお客様', 'デモ: さくら旅館 箱根に予約のあるお客様', 'dynamic', ${JSON.stringify(filter)}::jsonb) returning id`,
    );
    // Parsed as the API would, so the stored document has every default the renderer expects.
    const contents = {
      ja: ZTemplateContent.parse({
        subject: '箱根の冬のご案内',
        preheader: '露天風呂付き客室の特別プラン',
        document: {
          version: 1,
          sections: [
            {
              id: 's1',
              columns: [
                {
                  id: 'c1',
                  blocks: [
                    {
                      id: 't1',
                      type: 'text',
                      content: block(
                        '、いつもさくら旅館 箱根をご利用いただきありがとうございます。冬の特別プランをご用意しました。',
                      ),
                    },
                    {
                      id: 'b1',
                      type: 'button',
                      label: 'プランを見る',
                      href: 'https://sakura-hotels.example.jp/hakone/winter',
                    },
                  ],
                },
              ],
            },
          ],
        },
      }),
    };
    const [template] = await selectRows<{ id: string }>(
      tx,
      sql`insert into templates (brand_id, host_id, name, description, default_language, contents)
        values (${found.brand}::uuid, ${found.brand}::uuid, '箱根の冬', 'デモのテンプレート', 'ja', ${JSON.stringify(contents)}::jsonb) returning id`,
    );
    const [campaign] = await selectRows<{ id: string }>(
      tx,
      sql`insert into campaigns (brand_id, host_id, name, subject, pre_header, template_id, status, schedule_kind, send_at)
        values (${found.brand}::uuid, ${found.brand}::uuid, '箱根の冬のご案内', '箱根の冬のご案内', '露天風呂付き客室の特別プラン', ${template?.id}::uuid, 'scheduled', 'now',
          now() + make_interval(mins => ${DEMO_CAMPAIGN_DELAY_MINUTES}::int)) returning id`,
    );
    const loop = await demoFeedbackGuests(tx, found.brand, found.hakone);
    await tx.execute(
      sql`insert into campaign_segments (campaign_id, segment_id, brand_id)
        values (${campaign?.id}::uuid, ${segment?.id}::uuid, ${found.brand}::uuid), (${campaign?.id}::uuid, ${loop}::uuid, ${found.brand}::uuid)`,
    );
    await holdUses(tx, campaign?.id as string, 'scheduled');
  });
}

/** The sink's rules each demo guest meets (mail/smtp-sink.ts), with the name the console shows. */
export const DEMO_FEEDBACK_GUESTS = [
  { email: 'bounce.demo@guest.example.jp', firstName: '宛先不明', phone: '0000000001' },
  { email: 'full.demo@guest.example.jp', firstName: '受信箱満杯', phone: '0000000002' },
  { email: 'complain.demo@guest.example.jp', firstName: '迷惑メール報告', phone: '0000000003' },
] as const;

/**
 * The three demo guests of さくら旅館 箱根 whose mail comes back (seedDemoCampaign), in a static
 * segment of their own, named for what it is; answers the segment's id.
 */
async function demoFeedbackGuests(tx: TTx, brand: string, hakone: string): Promise<string> {
  const guests = await selectRows<{ id: string }>(
    tx,
    sql`insert into customers (brand_id, last_name, first_name, phone, email, country, consent_source)
      select ${brand}::uuid, 'デモ', g.first_name, g.phone, g.email, 'JP', 'manual'
      from jsonb_to_recordset(${JSON.stringify(DEMO_FEEDBACK_GUESTS.map((g) => ({ first_name: g.firstName, phone: g.phone, email: g.email })))}::jsonb)
        as g(first_name text, phone text, email text)
      returning id`,
  );
  const ids = guests.map((g) => g.id);
  await tx.execute(
    sql`insert into customer_allocations (customer_id, hotel_id, brand_id, source)
      select unnest(${sql.param(ids)}::uuid[]), ${hakone}::uuid, ${brand}::uuid, 'manual'`,
  );
  const [segment] = await selectRows<{ id: string }>(
    tx,
    sql`insert into segments (brand_id, host_id, name, description, type)
      values (${brand}::uuid, ${brand}::uuid, 'デモ: 不達と迷惑メール報告の確認用',
        'デモ: 埋め込みのSMTPシンクが不達（bounce.）・受信箱満杯（full.）・迷惑メール報告（complain.）を返すお客様', 'static') returning id`,
  );
  await tx.execute(
    sql`insert into segment_members (segment_id, customer_id, brand_id) select ${segment?.id}::uuid, unnest(${sql.param(ids)}::uuid[]), ${brand}::uuid`,
  );
  return segment?.id as string;
}
