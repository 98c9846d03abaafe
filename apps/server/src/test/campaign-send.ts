import { expect } from 'vitest';
import { startCampaign } from '../modules/campaigns/send-campaign.ts';
import { seedDemoSending } from '../seed/demo-sending.ts';
import { DEMO, startTestServer, type TTestServer } from './harness.ts';

/**
 * The worker-process send tests' server (kill, SIGTERM, takeover, scenario kill): no worker in it
 * (the test runs worker processes of its own on its database, data directory and embedded SMTP
 * sink), on PostgreSQL, with the demo's sending identity and no quiet hours at the brand;
 * `settings`: more of the brand's campaign email settings (`frequency_cap_count = 100`, say).
 */
export async function sendTestServer(env: Record<string, string>, settings = ''): Promise<TTestServer> {
  const s = await startTestServer({ worker: false, env });
  if (!s.rt.config.databaseUrl) throw new Error('a worker process needs PostgreSQL: it cannot share PGlite');
  await seedDemoSending(s.rt);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00'${settings ? `, ${settings}` : ''}
     where host_id = (select id from hosts where slug = 'sakura-hotels')`,
  );
  return s;
}

/** What `workerProcesses` (test/worker-process.ts) needs of the send test's server. */
export const workerSettings = (s: TTestServer) => ({
  databaseUrl: s.rt.config.databaseUrl,
  dataDir: s.rt.config.dataDir,
  sinkPort: s.rt.sink?.port,
});

let calls = 0;

/**
 * The send tests' campaign (the kill, SIGTERM and takeover tests): `n` guests of さくら箱根
 * addressed `<prefix><g>@guest.example.jp`, the first `unsubscribed` of them unsubscribed already,
 * in a static segment; a campaign to them with a one-button template, sent now (a worker takes
 * it up). Answers its id and the brand admin's token.
 */
export async function campaignTo(
  s: TTestServer,
  prefix: string,
  n: number,
  unsubscribed = 0,
): Promise<{ id: string; token: string }> {
  const { token } = await s.login(DEMO.brandAdmin);
  const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
  const like = `${prefix}%@guest.example.jp`;
  // Phones unique in the brand: 079x and seven digits, x one per campaign of the file.
  const phones = `079${calls++}`;
  await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email, email_status)
     select $1, 'ゲスト' || g, '箱根', $2 || lpad(g::text, 7, '0'), $3 || g || '@guest.example.jp',
       case when g <= ${unsubscribed} then 'unsubscribed' else 'active' end
     from generate_series(1, ${n}) g`,
    [brand.id, phones, prefix],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source)
     select id, $2, $1, 'manual' from customers where brand_id = $1 and email like $3`,
    [brand.id, hotel.id, like],
  );
  const segment = (await s.call('POST', '/v1/segments', { token, body: { name: `箱根 ${prefix}`, type: 'static' } }))
    .body.data.id as string;
  await s.sql(
    `insert into segment_members (segment_id, customer_id, brand_id) select $2, id, $1 from customers where brand_id = $1 and email like $3`,
    [brand.id, segment, like],
  );
  const template = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `箱根の冬 ${prefix}`,
      defaultLanguage: 'ja',
      contents: {
        ja: {
          subject: '冬',
          preheader: '',
          document: {
            version: 1,
            sections: [
              {
                id: 's',
                columns: [
                  {
                    id: 'c',
                    blocks: [{ id: 'b', type: 'button', label: '予約', href: 'https://sakura.example.jp/hakone' }],
                  },
                ],
              },
            ],
          },
        },
      },
    },
  });
  const campaign = await s.call('POST', '/v1/campaigns', {
    token,
    body: {
      name: `箱根の冬 ${prefix}`,
      subject: '箱根の冬のご案内',
      recipients: { segmentIds: [segment] },
      templateId: template.body.data.id,
    },
  });
  const id = campaign.body.data.id as string;
  expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);
  return { id, token };
}

/**
 * The relay tests' campaign (timeout, hold change, lost connection, pause race): a brand campaign
 * named `name` to these customers (a static segment, a template with no sections), sent now and
 * started, so its audience is snapshotted and nothing is sent yet. Answers its id and the brand
 * admin's token.
 */
export async function startedCampaignFor(
  s: TTestServer,
  name: string,
  customerIds: string[],
): Promise<{ id: string; token: string }> {
  const { token } = await s.login(DEMO.brandAdmin);
  const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  const segment = (await s.call('POST', '/v1/segments', { token, body: { name, type: 'static' } })).body.data
    .id as string;
  await s.call('POST', `/v1/segments/${segment}/members`, { token, body: { customerIds } });
  const templateId = (
    await s.call('POST', '/v1/templates', {
      token,
      body: {
        name,
        defaultLanguage: 'ja',
        contents: { ja: { subject: name, preheader: '', document: { version: 1, sections: [] } } },
      },
    })
  ).body.data.id as string;
  const created = await s.call('POST', '/v1/campaigns', {
    token,
    body: { name, subject: name, recipients: { segmentIds: [segment] }, templateId },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  const sent = await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await startCampaign(s.rt, { campaignId: id, brandId: brand.id as string });
  return { id, token };
}

/** Mails the server's embedded sink holds per address of the prefix. */
export async function sinkCounts(s: TTestServer, prefix: string): Promise<Map<string, number>> {
  const received = await s.sql(
    `select r.address, count(*)::int as n from dev_outbox o, unnest(o.rcpt_to) r(address)
     where r.address like $1 group by r.address`,
    [`${prefix}%@guest.example.jp`],
  );
  return new Map(received.map((r) => [r.address as string, r.n as number]));
}
