/**
 * send: a 15 KB personalised campaign to N recipients (default 100,000) through the real workflow
 * (dispatcher -> start job: the audience snapshot -> send jobs: claim, consent re-check,
 * personalise, tracked links, DKIM, pooled SMTP, each answer group-committed with its rollups)
 * into the SMTP sink. Baseline, in the same run and process: bare pooled nodemailer sending the
 * same messages (composed beforehand, DKIM-signed the same way) to the same sink.
 *
 *   npm run bench -- send [--size 100000] [--fresh] [--embedded-sink] [--experiment] [--ours-only]
 *
 * value = our messages per second (from the campaign's start to "sent"); ratio = ours ÷ baseline.
 * Each side also prints its CPU a mail: the sending process's and the whole machine's.
 * The sink stores every message (header read + group-commit insert) for both sides, in its own
 * process (bench/_sink.ts: a stand-in for a remote relay, which never shares the sender's core);
 * --embedded-sink runs it in this process instead, as before 2026-11-26.
 *
 * --experiment (issue 26): the campaign is an A/B test with 2 variants on 20 % of the audience and
 * a 10 % holdout, its wait set to nothing, so the dispatcher decides (inconclusive: no clicks, A)
 * as soon as the test share is answered and the rest goes on. Every recipient's arm and variant are
 * assigned in the snapshot; value is then the mails sent (90 % of N) per second from start to
 * "sent", to hold against a run without the flag ("assignment adds at most 5 %").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ZTemplateContent } from '@yado/contracts';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { startRuntime } from '../apps/server/src/start.ts';
import { startWorker } from '../apps/server/src/worker.ts';
import { resolveSendingIdentity } from '../apps/server/src/modules/sending/email-settings.ts';
import { compiledTemplate, personalise, personalValues } from '../apps/server/src/modules/templates/render-template.ts';
import { composeMessage, signingKey } from '../apps/server/src/modules/campaigns/compose-message.ts';
import { SINK_POOL } from '../apps/server/src/mail/transport.ts';
import { trackingFor } from '../apps/server/src/modules/tracking/links.ts';
import { admin, arg, cpuWindow, dbUrl, seedGuests, stopsWithBench } from './_support.ts';

const size = arg('size', 100_000);
const DB = 'yado_bench_send';
/** --embedded-sink: the sink in this process, sharing the sender's event loop (the layout before 2026-11-26). */
const embeddedSink = process.argv.includes('--embedded-sink');
/** --ours-only: no baseline (for comparing two versions of ours by their CPU a mail). */
const oursOnly = process.argv.includes('--ours-only');
/** --experiment: 2 variants on 20 %, a 10 % holdout (issue 26). */
const experiment = process.argv.includes('--experiment');

/** The SMTP sink in its own process (bench/_sink.ts), as a remote relay would be; resolves with it and its port. */
async function startSinkProcess(url: string): Promise<{ child: ChildProcess; port: number }> {
  const child = stopsWithBench(
    spawn('node_modules/.bin/tsx', ['bench/_sink.ts', url], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sink process exited (${code}) before it listened`)));
    lines.on('line', (line) => {
      const m = /^port=(\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
  });
  return { child, port };
}

const text = (id: string, ...content: unknown[]) => ({
  id,
  type: 'text',
  content: { type: 'doc', content: [{ type: 'paragraph', content }] },
});
const tag = (key: string) => ({ type: 'personalTag', attrs: { key } });
const words = 'ご滞在をより快適にお過ごしいただくため、チェックインの前にご確認いただきたいことをお知らせいたします。';
const contents = {
  ja: ZTemplateContent.parse({
    subject: '{{full_name}}、冬のご案内',
    preheader: '特別プランのお知らせ',
    document: {
      version: 1,
      sections: [
        {
          id: 's',
          columns: [
            {
              id: 'c',
              blocks: [
                text('greeting', tag('full_name'), { type: 'text', text: '、いつもご利用ありがとうございます。' }),
                ...Array.from({ length: 14 }, (_, n) =>
                  text(`p${n}`, { type: 'text', text: words, marks: n % 2 ? [{ type: 'bold' }] : [] }),
                ),
                { id: 'btn', type: 'button', label: 'プランを見る', href: 'https://sakura-hotels.example.jp/winter' },
                { id: 'btn2', type: 'button', label: '予約する', href: 'https://sakura-hotels.example.jp/book' },
              ],
            },
          ],
        },
      ],
    },
  }),
};

/**
 * CPU a mail: the sending process's (ours: the worker; the baseline: bare nodemailer) and the whole
 * machine's (the sender, the sink, PostgreSQL), steadier from run to run than msg/s on a shared
 * machine, and what says which side a change saved on.
 */
const perMail = (used: ReturnType<ReturnType<typeof cpuWindow>['end']>, mails: number) =>
  `CPU a mail: sender ${(used.processMs / mails).toFixed(2)} ms` +
  (used.machineMs === null ? '' : `, machine ${(used.machineMs / mails).toFixed(2)} ms`);

async function databaseExists(): Promise<boolean> {
  const client = new pg.Client({ connectionString: dbUrl('postgres') });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [DB])).rowCount === 1;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  // The seeded recipients are kept between runs (a re-run of the same size only clears the last
  // run's deliveries and received mail); --fresh seeds again from nothing.
  const fresh = process.argv.includes('--fresh') || !(await databaseExists());
  if (fresh) {
    await admin(`drop database if exists ${DB} with (force)`);
    await admin(`create database ${DB}`);
  }
  const url = dbUrl(DB);
  const sink = embeddedSink ? null : await startSinkProcess(url);
  // Both sides use the same pool towards the sink (SINK_POOL), given in the relay URL as a deployment would.
  const smtpUrl = sink
    ? `smtp://127.0.0.1:${sink.port}/?pool=true&maxConnections=${SINK_POOL.maxConnections}&maxMessages=Infinity`
    : undefined;
  const config = loadConfig(
    {
      DATABASE_URL: url,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      DATA_DIR: '/tmp/yado-bench-send',
      WEB_DIST: '/nonexistent',
      BOOKING_API_URL: 'http://127.0.0.1:9',
      CAMPAIGN_DISPATCH_SECONDS: '1',
    },
    {},
  );
  // Set after loading rather than as SMTP_URL: the rest stays embedded (the demo's DNS, its verified domain).
  if (smtpUrl) config.smtpUrl = smtpUrl;
  // First start: the demo organisation and さくらホテルズ' verified sending domain (embedded DNS).
  const rt = await startRuntime(config, { bookingSim: false });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const q = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows;
    const [brand] = await q(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await q(`select id from hosts where slug = 'sakura-shinjuku'`);
    await q(
      `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00', frequency_cap_count = 100 where host_id = $1`,
      [brand.id],
    );
    let [segment] = await q(`select id from segments where brand_id = $1 and name = $2`, [brand.id, `bench ${size}`]);
    let [template] = await q(`select id, version from templates where brand_id = $1 and name = 'bench'`, [brand.id]);
    if (segment && template) {
      process.stdout.write(`reusing ${size.toLocaleString()} seeded recipients (--fresh to seed again)\n`);
      await q(`truncate dev_outbox`);
      await q(`delete from deliveries where brand_id = $1`, [brand.id]);
    } else {
      await q(`delete from deliveries where brand_id = $1`, [brand.id]);
      await q(`delete from customer_allocations where brand_id = $1`, [brand.id]);
      await q(`delete from segment_members where brand_id = $1`, [brand.id]);
      await q(`delete from customers where brand_id = $1 and email like '%@bench.example.jp'`, [brand.id]);
      process.stdout.write(`seeding ${size.toLocaleString()} recipients...\n`);
      await seedGuests(pool, { brandId: brand.id, hotelId: hotel.id, size, domain: 'bench.example.jp' });
      [segment] = await q(
        `insert into segments (brand_id, host_id, name, type) values ($1, $1, $2, 'static') returning id`,
        [brand.id, `bench ${size}`],
      );
      await q(
        `insert into segment_members (segment_id, customer_id, brand_id) select $2, id, $1 from customers where brand_id = $1`,
        [brand.id, segment.id],
      );
      template ??= (
        await q(
          `insert into templates (brand_id, host_id, name, default_language, contents) values ($1, $1, 'bench', 'ja', $2) returning id, version`,
          [brand.id, JSON.stringify(contents)],
        )
      )[0];
    }
    // As a production database is, and as bench bounces does: the statistics and visibility map of
    // the tables just written (the seeding, or the last run's deleted deliveries) made now, and
    // their dirty pages written out, rather than by autovacuum and the checkpointer during ours,
    // which runs first (the baseline touches none of these tables). Planned on such statistics the
    // audience snapshot was once quadratic (docs/benchmarks.md, send).
    await q('vacuum analyze customers, customer_allocations, segment_members, deliveries');
    await q('checkpoint');
    const compiled = await compiledTemplate(
      { id: template.id, version: template.version, defaultLanguage: 'ja', contents: contents as never },
      'ja',
      (s) => s,
    );
    const sample = personalise(compiled, personalValues({ firstName: '花子', lastName: '山田' }, 'ja'));
    process.stdout.write(`template HTML ${(Buffer.byteLength(sample.html) / 1024).toFixed(1)} KB\n`);

    // Ours: scheduled for now; the worker's dispatcher starts it at once.
    const [campaign] = await q(
      `insert into campaigns (brand_id, host_id, name, subject, template_id, status, schedule_kind, send_at) values ($1, $1, 'bench', '', $2, 'scheduled', 'now', now()) returning id`,
      [brand.id, template.id],
    );
    await q(`insert into campaign_segments (campaign_id, segment_id, brand_id) values ($1, $2, $3)`, [
      campaign.id,
      segment.id,
      brand.id,
    ]);
    if (experiment)
      // A wait of nothing (below the API's 1 hour): decided as soon as the test share is answered.
      await q(
        `update campaigns set experiment_variants = $2::jsonb, experiment_test_percent = 20, experiment_wait_hours = 0, holdout_percent = 10 where id = $1`,
        [
          campaign.id,
          JSON.stringify([{ subject: 'B: 冬のご案内', preHeader: '', senderName: null, templateId: null }]),
        ],
      );
    const t0 = performance.now();
    const oursCpu = cpuWindow();
    await startWorker(rt);
    for (;;) {
      const [c] = await q(`select status from campaigns where id = $1`, [campaign.id]);
      if (c.status === 'sent' || c.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const oursSeconds = (performance.now() - t0) / 1000;
    const oursUsed = oursCpu.end();
    const [counts] = await q(
      `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where skip_reason = 'holdout')::int as held,
        count(*)::int as total from deliveries where campaign_id = $1`,
      [campaign.id],
    );
    if (counts.sent + counts.held !== size)
      throw new Error(`ours sent ${counts.sent} (held out ${counts.held}) of ${size}`);
    const ours = counts.sent / oursSeconds;
    process.stdout.write(
      `ours: ${counts.sent} messages${experiment ? ` (${counts.held} held out)` : ''} in ${oursSeconds.toFixed(1)} s = ${ours.toFixed(0)} msg/s (${perMail(oursUsed, counts.sent)})\n`,
    );

    if (oursOnly) return;
    // Baseline: the same messages composed beforehand, bare pooled nodemailer into the same sink.
    const resolution = await resolveSendingIdentity(rt, brand.id);
    if (!resolution.ok) throw new Error(`the bench brand cannot send: ${resolution.problems.join(', ')}`);
    const identity = resolution.identity;
    // Signed with the same parsed key as ours: the baseline is bare nodemailer, not a slower signer.
    const dkim = signingKey(identity.dkim);
    const recipients = await q(
      `select d.id, d.email, c.first_name, c.last_name from deliveries d join customers c on c.id = d.customer_id where d.campaign_id = $1 and d.status = 'sent'`,
      [campaign.id],
    );
    // Bodies held as UTF-8 Buffers, outside the JS heap: 100,000 composed mails as strings would
    // need about 3.5 GB of heap (Japanese text makes them two bytes a character).
    const mails = recipients.map((r) => {
      const mail = composeMessage({
        campaignId: campaign.id,
        deliveryId: r.id,
        to: r.email,
        language: 'ja',
        message: personalise(
          compiled,
          personalValues({ firstName: r.first_name, lastName: r.last_name, email: r.email }, 'ja'),
        ),
        publicUrl: rt.config.publicUrl,
        identity,
        dkim,
        tracking: trackingFor(rt, r.id, { mailto: identity.from.address, language: 'ja' }),
      });
      return { ...mail, html: Buffer.from(mail.html as string), text: Buffer.from(mail.text as string) };
    });
    const bare = nodemailer.createTransport({
      host: '127.0.0.1',
      port: sink?.port ?? rt.sink?.port,
      secure: false,
      ignoreTLS: true,
      pool: true,
      ...SINK_POOL,
    });
    const t1 = performance.now();
    const baseCpu = cpuWindow();
    let next = 0;
    await Promise.all(
      Array.from({ length: 200 }, async () => {
        while (next < mails.length) {
          const mail = mails[next++];
          if (mail) await bare.sendMail(mail);
        }
      }),
    );
    const baseSeconds = (performance.now() - t1) / 1000;
    const baseUsed = baseCpu.end();
    bare.close();
    const baseline = mails.length / baseSeconds;
    process.stdout.write(
      `baseline: ${mails.length} messages in ${baseSeconds.toFixed(1)} s = ${baseline.toFixed(0)} msg/s (${perMail(baseUsed, mails.length)})\n`,
    );
    process.stdout.write(
      `BENCH send value=${ours.toFixed(1)} unit=msg/s baseline=${baseline.toFixed(1)} ratio=${(ours / baseline).toFixed(3)}\n`,
    );
  } finally {
    // The received mail is most of the database's size: cleared, while the recipients stay for the next run.
    await pool.query('truncate dev_outbox').catch(() => undefined);
    await pool.end();
    await rt.stop();
    sink?.child.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `bench send failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
