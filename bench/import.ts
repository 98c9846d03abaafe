/**
 * import: a customer CSV of N rows (default 100,000; the target is stated at 1,000,000) through
 * the same path the console uses: multipart upload to the real server, the review job, the
 * confirm, the import job, polled until done. 10% of the rows update existing customers, the rest
 * are new. Baseline, same run, same file: COPY into a temporary table plus one hand-written
 * INSERT ... ON CONFLICT DO UPDATE, over `pg`, as the owner. Every run (either side) starts from
 * the same customers, after a checkpoint; both sides are warmed by one unmeasured run, then
 * measured in alternating rounds (bench/_support.ts alternateRounds).
 *   npm run bench -- import [--size N] [--rounds 3]
 * value = our rows per second end to end (median round); ratio = ours ÷ the baseline's.
 * Also prints the server's peak memory (resident set of its process tree) over our rounds.
 */
import { createReadStream, createWriteStream, existsSync, openAsBlob, readFileSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { admin, alternateRounds, arg, dbUrl, demoBrand, loginToken, startServer, withSpread } from './_support.ts';

const size = arg('size', 100_000);
/** Alternated rounds per side (docs/benchmarks.md, "Method"), at least three. */
const rounds = arg('rounds', 3);
const port = arg('port', 3908);
const DB = 'yado_bench_import';
const FILE = `/tmp/yado-bench-import-${size}.csv`;
const UPDATED_SHARE = 10;

const FAMILY = ['山田', '佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '中村', '小林', 'Smith', '加藤'];
const GIVEN = ['太郎', '花子', '健太', '美咲', '一郎', 'さくら', '翔', '陽菜', 'Emily', 'James'];
const phoneOf = (i: number) => `080${String(i).padStart(8, '0')}`;

async function writeFile(): Promise<void> {
  if (existsSync(FILE)) return;
  process.stdout.write(`writing ${size.toLocaleString()} rows to ${FILE}...\n`);
  const out = createWriteStream(FILE);
  out.write('\uFEFF姓,名,電話番号,メールアドレス,性別,生年月日,住所,メール配信\r\n');
  let chunk = '';
  for (let i = 0; i < size; i++) {
    const dob = `19${String(50 + (i % 50))}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    chunk += `${FAMILY[i % 11]},${GIVEN[i % 10]},${phoneOf(i)},guest${i}@example.jp,${i % 2 ? '女性' : '男性'},${dob},"東京都新宿区西新宿${i % 100}-${i % 50}",配信中\r\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** The same starting state for both runs: no customers but every tenth row's, with an old address. */
async function resetCustomers(url: string, brand: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // The demo brand's booking-system sync would add customers during the runs: disconnect it.
    await c.query('begin');
    await c.query('delete from booking_connections');
    await c.query('truncate customers cascade');
    await c.query('truncate customer_import_rows');
    await c.query(
      `insert into customers (brand_id, last_name, first_name, phone, email, address)
       select $1, 'Old', 'Name', '080' || lpad(g::text, 8, '0'), null, 'old address' from generate_series(0, $2::int - 1, ${UPDATED_SHARE}) g`,
      [brand, size],
    );
    await c.query('commit');
    await c.query('vacuum analyze customers');
    // Both runs start without the other's WAL to write back.
    await c.query('checkpoint');
  } finally {
    await c.end();
  }
}

/** Resident memory of a process and its children, in MB. */
function treeRss(pid: number): number {
  let kb = 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) kb += treeRss(Number(child)) * 1024;
    }
  } catch {
    // The process ended between listing and reading.
  }
  return kb / 1024;
}

/** One run of either side: its time, and for ours how it split and what the import reported. */
interface TRun {
  seconds: number;
  split?: string;
  counts?: unknown;
  result?: unknown;
  /** Our server's peak resident memory during the run, in MB. */
  peakMb?: number;
}

async function ours(base: string, token: string): Promise<TRun> {
  const headers = { authorization: `Bearer ${token}` };
  const get = async (id: string) =>
    (
      (await (await fetch(`${base}/v1/customer-imports/${id}`, { headers })).json()) as {
        data: { status: string; counts: unknown; result: unknown; error: unknown };
      }
    ).data;
  const t0 = performance.now();
  const form = new FormData();
  form.append('file', await openAsBlob(FILE), 'customers.csv');
  const up = (await (await fetch(`${base}/v1/customer-imports`, { method: 'POST', headers, body: form })).json()) as {
    data?: { id: string };
    error?: unknown;
  };
  if (!up.data) throw new Error(`upload refused: ${JSON.stringify(up.error)}`);
  const uploadedAt = performance.now();
  const id = up.data.id;
  let state = await get(id);
  while (state.status === 'reviewing') {
    await sleep(200);
    state = await get(id);
  }
  const reviewedAt = performance.now();
  if (state.status !== 'reviewed') throw new Error(`review ended ${state.status}: ${JSON.stringify(state.error)}`);
  await fetch(`${base}/v1/customer-imports/${id}/confirm`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ emailReception: 'booking' }),
  });
  state = await get(id);
  while (state.status === 'queued' || state.status === 'importing') {
    await sleep(200);
    state = await get(id);
  }
  const seconds = (performance.now() - t0) / 1000;
  if (state.status !== 'completed') throw new Error(`import ended ${state.status}: ${JSON.stringify(state.error)}`);
  const secs = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
  const split = `upload ${secs(t0, uploadedAt)} s, review ${secs(uploadedAt, reviewedAt)} s, import ${secs(reviewedAt, performance.now())} s`;
  return { seconds, split, counts: state.counts, result: state.result };
}

async function baseline(url: string, brand: string): Promise<TRun> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const t0 = performance.now();
    await c.query('begin');
    await c.query(
      `create temp table stage (last_name text, first_name text, phone text, email text, gender text, dob text, address text, email_status text) on commit drop`,
    );
    await pipeline(
      createReadStream(FILE, { start: 3 }),
      c.query(copyFrom(`copy stage from stdin with (format csv, header true)`)),
    );
    await c.query(
      `insert into customers (brand_id, last_name, first_name, phone, email, gender, date_of_birth, address, email_status, consent_source, consent_at)
       select $1, last_name, first_name, phone, email, case gender when '男性' then 'male' when '女性' then 'female' end, dob::date, address,
         case email_status when '配信停止' then 'unsubscribed' else 'active' end, 'import', now()
       from stage
       on conflict (brand_id, phone) do update set last_name = excluded.last_name, first_name = excluded.first_name, email = excluded.email,
         gender = excluded.gender, date_of_birth = excluded.date_of_birth, address = excluded.address, updated_at = now()
       where (customers.last_name, customers.first_name, customers.email, customers.gender, customers.date_of_birth, customers.address)
         is distinct from (excluded.last_name, excluded.first_name, excluded.email, excluded.gender, excluded.date_of_birth, excluded.address)`,
      [brand],
    );
    await c.query('commit');
    return { seconds: (performance.now() - t0) / 1000 };
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  // A fresh database each run: the customers are generated per run anyway, and an old bench
  // database would refuse a migration renumbered since.
  await admin(`drop database if exists ${DB} with (force)`);
  await admin(`create database ${DB}`);
  const url = dbUrl(DB);
  await writeFile();
  const server = await startServer(url, port);
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(server.pid as number));
  }, 100);
  try {
    const base = `http://127.0.0.1:${port}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const { brand } = await demoBrand(c);
    await c.end();
    const token = await loginToken(base);
    const idle = treeRss(server.pid as number);

    // Each run, either side, starts from the same customers after a checkpoint.
    const ourRun = async () => {
      await resetCustomers(url, brand);
      peak = 0;
      const run = await ours(base, token);
      return { ...run, peakMb: peak };
    };
    const handRun = async () => {
      await resetCustomers(url, brand);
      return baseline(url, brand);
    };
    process.stdout.write(
      `ours: ${size.toLocaleString()} rows through upload, review and import; baseline: COPY into a temporary table and one INSERT ... ON CONFLICT, by hand\n`,
    );
    const { ours: o, baseline: h } = await alternateRounds<TRun>({
      rounds,
      warmUp: {
        ours: async () => {
          const run = await ourRun();
          process.stdout.write(
            `  warm-up ours ${run.seconds.toFixed(1)} s, counts ${JSON.stringify(run.counts)} result ${JSON.stringify(run.result)}\n`,
          );
        },
        baseline: handRun,
      },
      ours: ourRun,
      baseline: handRun,
      measure: (run) => run.seconds,
      label: (run) =>
        `${run.seconds.toFixed(1)} s (${Math.round(size / run.seconds).toLocaleString()} rows/s)` +
        (run.split ? `: ${run.split}, server memory peak ${run.peakMb?.toFixed(0)} MB` : ''),
    });
    const peakMb = Math.max(...o.rounds.map((run) => run.peakMb ?? 0));
    process.stdout.write(`ours     ${withSpread(o, 's')}, median round: ${o.medianRound.split}\n`);
    process.stdout.write(`baseline ${withSpread(h, 's')}\n`);
    process.stdout.write(`server memory ${idle.toFixed(0)} MB idle, ${peakMb.toFixed(0)} MB peak over our rounds\n`);
    const value = size / o.median;
    const hand = size / h.median;
    process.stdout.write(
      `BENCH import value=${value.toFixed(0)} unit=rows/s baseline=${hand.toFixed(0)} ratio=${(value / hand).toFixed(2)}\n`,
    );
  } finally {
    clearInterval(sampler);
    server.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
