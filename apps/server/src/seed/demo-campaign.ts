import { ZTemplateContent } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, withTenant } from '../db/client.ts';
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
    await tx.execute(
      sql`insert into campaign_segments (campaign_id, segment_id, brand_id) values (${campaign?.id}::uuid, ${segment?.id}::uuid, ${found.brand}::uuid)`,
    );
    await holdUses(tx, campaign?.id as string, 'scheduled');
  });
}
