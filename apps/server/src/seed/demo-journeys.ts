import {
  SCENARIO_GRAPH_VERSION,
  ZScenarioGraph,
  ZScenarioRunInput,
  type TScenarioGraph,
} from '@yado/contracts/scenarios';
import { sql } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../db/client.ts';
import type { TRuntime } from '../runtime.ts';
import { runScenarioTick } from '../modules/scenarios/run-tick.ts';
import {
  DEMO_HISTORY_MARK,
  PastAftermath,
  sendInThePast,
  templateContents,
  type TPastSender,
  type TTrait,
} from './demo-past.ts';

/**
 * The demo's running scenario: さくらホテルズ's birthday greeting, turned on a month before the
 * first start (DEMO_JOURNEY_DAYS; the engine's past ticks take about a third of a second a day on
 * the embedded database, so 90 days would keep the demo's first minute busy). Each guest enters on their birthday and gets the greeting at 09:00; three days later
 * those who opened it get an invitation to book with the birthday benefit, those who did not a
 * reminder of it. Journeys are moved by the engine's own tick (`runScenarioTick`) at the moments
 * the worker would have ticked, the mails it queues are answered by the relay at those moments
 * (demo-past.ts, no mail sent), and what followed them is applied when the timeline reaches it, so
 * the branch sees the opens before it and no later one. After the seed the scenario runs on:
 * today's and later birthdays are the live engine's.
 */

export const DEMO_JOURNEY_NAME = `お誕生日のお祝い${DEMO_HISTORY_MARK}`;
/** How many days before the first start the scenario was turned on. */
export const DEMO_JOURNEY_DAYS = 30;

const MAILS = {
  greeting: {
    subject: 'お誕生日おめでとうございます',
    preheader: 'お誕生日月のご宿泊にささやかな特典をご用意しました',
    href: 'https://sakura-hotels.example.jp/birthday',
  },
  invitation: {
    subject: 'お誕生日特典でのご予約はお済みですか',
    preheader: 'ケーキとスパークリングワインのご用意は前日まで承ります',
    href: 'https://sakura-hotels.example.jp/birthday/plan',
  },
  reminder: {
    subject: '【再送】お誕生日特典のご案内',
    preheader: '特典はお誕生日の月末まで',
    href: 'https://sakura-hotels.example.jp/birthday',
  },
} as const;

type TMail = keyof typeof MAILS;

/** The scenario's graph, with the templates of its three mails. */
function graphOf(templates: Record<TMail, string>, senderEmail: string): TScenarioGraph {
  const email = (id: TMail, label: string, x: number, y: number) => ({
    id,
    type: 'email' as const,
    position: { x, y },
    label,
    data: { templateId: templates[id], subject: MAILS[id].subject, senderEmail },
  });
  return ZScenarioGraph.parse({
    version: SCENARIO_GRAPH_VERSION,
    nodes: [
      { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: { kind: 'birthday' } },
      email('greeting', 'お誕生日のお祝い', 0, 160),
      { id: 'wait', type: 'delay', position: { x: 0, y: 320 }, data: { kind: 'duration', amount: 3, unit: 'days' } },
      { id: 'opened', type: 'branch', position: { x: 0, y: 480 }, data: { condition: 'opened_previous' } },
      email('invitation', 'ご予約のご案内', -200, 640),
      email('reminder', '特典のリマインド', 200, 640),
    ],
    edges: [
      { id: 'trigger-greeting', source: 'trigger', target: 'greeting', handle: 'next' },
      { id: 'greeting-wait', source: 'greeting', target: 'wait', handle: 'next' },
      { id: 'wait-opened', source: 'wait', target: 'opened', handle: 'next' },
      { id: 'opened-invitation', source: 'opened', target: 'invitation', handle: 'yes' },
      { id: 'opened-reminder', source: 'opened', target: 'reminder', handle: 'no' },
    ],
  });
}

/**
 * The engine's moments of a day, after the send time (09:00 JST): the tick that lets the day's
 * birthdays in and queues their greetings, and the two after the relay's answers (the waits wake
 * and go on; a three-day wait begun at the second ends at the second three days later, and its
 * mails are answered before the third).
 */
const TICKS_MS = [1, 3, 5].map((minutes) => 9 * 3_600_000 + minutes * 60_000);
/**
 * When a morning's last answers are in (the third tick's mails, claimed a minute after it and
 * answered 50 s after the claim), after its midnight (JST). A morning that is not wholly past at
 * the seed's moment is left to the live engine, which runs on after the seed: written here, its
 * mails would be answered after that moment.
 */
export const DEMO_MORNING_END_MS = 9 * 3_600_000 + 8 * 60_000;

export interface TDemoJourneys {
  /** The engine's ticks of the day that began at `midnight` (JST), if that morning is wholly before `now`. */
  runDay(midnight: number, now: Date): Promise<void>;
}

/**
 * Creates the scenario, running since `since`; answers the runner of its days (a day before
 * `since` has nothing to run).
 */
export async function startDemoJourneys(
  rt: TRuntime,
  sender: TPastSender,
  traits: Map<string, TTrait>,
  aftermath: PastAftermath,
  since: Date,
): Promise<TDemoJourneys> {
  const { brandId } = sender;
  const inBrand = <T>(fn: (tx: TTx) => Promise<T>) => withTenant(rt.database.db, { scopeAll: false, brandId }, fn);
  const scenarioId = await inBrand(async (tx) => {
    const templates = {} as Record<TMail, string>;
    for (const key of Object.keys(MAILS) as TMail[]) {
      const mail = MAILS[key];
      const [row] = await selectRows<{ id: string }>(
        tx,
        sql`insert into templates (brand_id, host_id, name, description, default_language, contents, created_at, updated_at)
          values (${brandId}::uuid, ${brandId}::uuid, ${mail.subject}, 'デモ履歴: お誕生日シナリオのテンプレート', 'ja',
            ${JSON.stringify(templateContents(mail.subject, mail.preheader, mail.href))}::jsonb, ${since.toISOString()}::timestamptz, ${since.toISOString()}::timestamptz)
          returning id`,
      );
      templates[key] = row!.id;
    }
    const run = ZScenarioRunInput.parse({ period: { kind: 'long_run' }, timeZone: 'Asia/Tokyo', sendTime: '09:00' });
    // As the run action starts it (scenario-operations.ts), at the history's first moment.
    const [row] = await selectRows<{ id: string }>(
      tx,
      sql`insert into scenarios (brand_id, host_id, name, description, status, graph, run, preset_id, run_number, starts_at, started_at, next_entry_at, entry_count, created_at, updated_at)
        values (${brandId}::uuid, ${brandId}::uuid, ${DEMO_JOURNEY_NAME}, ${`デモ履歴: ${DEMO_JOURNEY_DAYS}日前から動いているシナリオ`}, 'running',
          ${JSON.stringify(graphOf(templates, sender.fromAddress))}::jsonb, ${JSON.stringify(run)}::jsonb, 'builtin:birthday', 1,
          ${since.toISOString()}::timestamptz, ${since.toISOString()}::timestamptz, ${since.toISOString()}::timestamptz, 0,
          ${since.toISOString()}::timestamptz, ${since.toISOString()}::timestamptz)
        returning id`,
    );
    return row!.id;
  });
  /** The scenario's mails queued and not yet answered: the relay answers them at `at`. */
  const answer = async (at: Date) => {
    const sent = await inBrand(async (tx) => {
      const campaigns = await selectRows<{ id: string; node: TMail }>(
        tx,
        sql`select c.id, c.scenario_node_id as node from campaigns c where c.scenario_id = ${scenarioId}::uuid
          and exists (select 1 from deliveries d where d.campaign_id = c.id and d.status = 'queued')`,
      );
      const out = [];
      for (const c of campaigns)
        out.push({ node: c.node, ...(await sendInThePast(tx, { ...sender, id: c.id }, traits, at)) });
      return out;
    });
    for (const s of sent) await aftermath.follow(s.rows, at, MAILS[s.node].subject, MAILS[s.node].href);
  };
  return {
    async runDay(midnight, now) {
      if (midnight < since.getTime() || midnight + DEMO_MORNING_END_MS > now.getTime()) return;
      for (const offset of TICKS_MS) {
        const at = new Date(midnight + offset);
        await aftermath.reach(at);
        const steps = await runScenarioTick(rt, at, { sendJobs: false });
        const answeredAt = new Date(at.getTime() + 60_000);
        if (steps === 0) continue;
        await aftermath.reach(answeredAt);
        await answer(answeredAt);
      }
    },
  };
}
