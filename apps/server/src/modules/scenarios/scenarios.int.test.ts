import { STOP_SENTENCE, STOP_SENTENCES } from '@yado/contracts/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

/** The scenario and preset routes per role and against another brand, and bad graphs: 400 with per-node marks, never 500. */

let s: TTestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer({ env: { SCENARIO_CLOCK: 'manual' } });
  for (const [key, email] of Object.entries({
    grand: DEMO.grand,
    brand: DEMO.brandAdmin,
    hotelAdmin: DEMO.hotelAdmin,
    staff: DEMO.hotelStaff,
    viewer: DEMO.hotelViewer,
    harbor: DEMO.harborAdmin,
  }))
    tokens[key] = (await s.login(email)).token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const graph = (nodes: unknown[], edges: unknown[]) => ({ nodes, edges });
const delayGraph = (amount: number, unit = 'days') =>
  graph(
    [
      { id: 't', type: 'trigger', data: { kind: 'birthday' } },
      { id: 'd', type: 'delay', data: { kind: 'duration', amount, unit } },
    ],
    [{ id: 'e1', source: 't', target: 'd' }],
  );

describe('scenario routes per role', () => {
  it('lets a hotel admin and staff create and edit their own; a viewer reads; staff cannot delete', async () => {
    const made = await s.call('POST', '/v1/scenarios', {
      token: tokens.hotelAdmin,
      body: { name: 'ホテルの誕生日', graph: delayGraph(1) },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id;
    expect(made.body.data).toMatchObject({ status: 'draft', editable: true, faults: [] });

    const byStaff = await s.call('PUT', `/v1/scenarios/${id}`, {
      token: tokens.staff,
      body: { description: 'スタッフが編集' },
    });
    expect(byStaff.status, JSON.stringify(byStaff.body)).toBe(200);
    expect((await s.call('DELETE', `/v1/scenarios/${id}`, { token: tokens.staff })).status).toBe(403);

    const viewerList = await s.call('GET', '/v1/scenarios', { token: tokens.viewer });
    expect(viewerList.status).toBe(200);
    expect(viewerList.body.data.items.some((x: { id: string }) => x.id === id)).toBe(true);
    expect((await s.call('GET', `/v1/scenarios/${id}`, { token: tokens.viewer })).status).toBe(200);
    expect((await s.call('POST', '/v1/scenarios', { token: tokens.viewer, body: { name: 'x' } })).status).toBe(403);
    expect((await s.call('PUT', `/v1/scenarios/${id}`, { token: tokens.viewer, body: { name: 'x' } })).status).toBe(
      403,
    );
    expect(
      (await s.call('POST', `/v1/scenarios/${id}/actions`, { token: tokens.viewer, body: { action: 'run' } })).status,
    ).toBe(403);

    // The brand above reads the hotel's scenario but does not change it.
    const brandRead = await s.call('GET', `/v1/scenarios/${id}`, { token: tokens.brand });
    expect(brandRead.status).toBe(200);
    expect(brandRead.body.data.editable).toBe(false);
    expect((await s.call('PUT', `/v1/scenarios/${id}`, { token: tokens.brand, body: { name: 'x' } })).status).toBe(403);

    // Another brand: not found, and not in its list.
    for (const [method, path] of [
      ['GET', `/v1/scenarios/${id}`],
      ['PUT', `/v1/scenarios/${id}`],
      ['DELETE', `/v1/scenarios/${id}`],
      ['POST', `/v1/scenarios/${id}/copy`],
      ['GET', `/v1/scenarios/${id}/summary`],
      ['GET', `/v1/scenarios/${id}/journeys`],
      ['GET', `/v1/scenarios/${id}/emails`],
    ] as const) {
      const res = await s.call(method, path, {
        token: tokens.harbor,
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const harborList = await s.call('GET', '/v1/scenarios', { token: tokens.harbor });
    expect(harborList.body.data.items.some((x: { id: string }) => x.id === id)).toBe(false);

    // Delete archives; restore brings a draft back; a second delete of an archived one removes it.
    const archived = await s.call('DELETE', `/v1/scenarios/${id}`, { token: tokens.hotelAdmin });
    expect(archived.body.data).toEqual({ id, status: 'archived' });
    expect(
      (await s.call('POST', `/v1/scenarios/${id}/actions`, { token: tokens.hotelAdmin, body: { action: 'restore' } }))
        .body.data.status,
    ).toBe('draft');
    await s.call('DELETE', `/v1/scenarios/${id}`, { token: tokens.hotelAdmin });
    expect((await s.call('DELETE', `/v1/scenarios/${id}`, { token: tokens.hotelAdmin })).body.data).toEqual({
      id,
      status: null,
    });
    expect((await s.call('GET', `/v1/scenarios/${id}`, { token: tokens.hotelAdmin })).status).toBe(404);
  });

  it('copies into a draft, runs, refuses changes while running, and stops only with the typed sentence', async () => {
    const made = (
      await s.call('POST', '/v1/scenarios', { token: tokens.brand, body: { name: '誕生日', graph: delayGraph(2) } })
    ).body.data;
    // A hotel does not reach its brand's scenarios (reach runs downwards, as for campaigns).
    expect((await s.call('POST', `/v1/scenarios/${made.id}/copy`, { token: tokens.hotelAdmin, body: {} })).status).toBe(
      404,
    );
    const copy = await s.call('POST', `/v1/scenarios/${made.id}/copy`, { token: tokens.brand, body: {} });
    expect(copy.status).toBe(200);
    expect(copy.body.data).toMatchObject({ name: '誕生日（コピー）', status: 'draft', editable: true });

    const run = await s.call('POST', `/v1/scenarios/${made.id}/actions`, {
      token: tokens.brand,
      body: { action: 'run' },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.data.status).toBe('running');
    expect(
      (await s.call('PUT', `/v1/scenarios/${made.id}`, { token: tokens.brand, body: { name: '変更' } })).body.error
        .code,
    ).toBe('scenario_not_editable');
    expect((await s.call('DELETE', `/v1/scenarios/${made.id}`, { token: tokens.brand })).body.error.code).toBe(
      'scenario_running',
    );
    expect(
      (await s.call('POST', `/v1/scenarios/${made.id}/actions`, { token: tokens.brand, body: { action: 'run' } })).body
        .error.code,
    ).toBe('scenario_action_not_allowed');

    const wrong = await s.call('POST', `/v1/scenarios/${made.id}/actions`, {
      token: tokens.brand,
      body: { action: 'stop', confirmation: 'i acknowledge' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.confirmation.code).toBe('scenario_stop_confirmation');
    const stop = await s.call('POST', `/v1/scenarios/${made.id}/actions`, {
      token: tokens.brand,
      body: { action: 'stop', confirmation: STOP_SENTENCE },
    });
    expect(stop.body.data.status).toBe('stopped');
    const restart = await s.call('POST', `/v1/scenarios/${made.id}/actions`, {
      token: tokens.brand,
      body: { action: 'restart' },
    });
    expect(restart.body.data.status).toBe('draft');
  });
});

describe("a copy's name", () => {
  it("reads in the user's language: the console's, else the profile's; a long name keeps the mark", async () => {
    const copyOf = async (token: string | undefined, id: string, body: object = {}) => {
      const res = await s.call('POST', `/v1/scenarios/${id}/copy`, { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.name as string;
    };
    const sakura = (await s.call('POST', '/v1/scenarios', { token: tokens.brand, body: { name: '雨の日のご案内' } }))
      .body.data.id as string;
    const harbor = (await s.call('POST', '/v1/scenarios', { token: tokens.harbor, body: { name: 'Rainy day' } })).body
      .data.id as string;
    // The brand admin's profile is in Japanese, Harbor View's brand admin's in English.
    expect(await copyOf(tokens.brand, sakura)).toBe('雨の日のご案内（コピー）');
    expect(await copyOf(tokens.harbor, harbor)).toBe('Rainy day (copy)');
    // The console's language wins over the profile's; a name given is kept.
    expect(await copyOf(tokens.brand, sakura, { language: 'en' })).toBe('雨の日のご案内 (copy)');
    expect(await copyOf(tokens.harbor, harbor, { language: 'ja' })).toBe('Rainy day（コピー）');
    expect(await copyOf(tokens.harbor, harbor, { language: 'ja', name: 'Rainy day 2' })).toBe('Rainy day 2');

    const long = (await s.call('POST', '/v1/scenarios', { token: tokens.brand, body: { name: 'あ'.repeat(100) } })).body
      .data.id as string;
    expect(await copyOf(tokens.brand, long)).toBe(`${'あ'.repeat(95)}（コピー）`);
    expect(await copyOf(tokens.brand, long, { language: 'en' })).toBe(`${'あ'.repeat(93)} (copy)`);
  });
});

describe("a new scenario's time zone", () => {
  it("is the creating host's own, from a preset or from nothing; a run period given keeps its own", async () => {
    // Harbor View keeps its hotels' clock in Honolulu; Sakura's is Tokyo's.
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where slug = 'harbor-view'`);
    const zoneOf = async (token: string | undefined, path: string, body: object) => {
      const res = await s.call('POST', path, { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.run as { timeZone: string; sendTime: string; period: { kind: string } };
    };
    for (const preset of ['builtin:pre_arrival', 'builtin:birthday'])
      expect(await zoneOf(tokens.harbor, `/v1/presets/${preset}/scenarios`, {})).toMatchObject({
        timeZone: 'Pacific/Honolulu',
        sendTime: '09:00',
        period: { kind: 'long_run' },
      });
    // A host's own preset too, made from nothing.
    const own = await s.call('POST', '/v1/presets', {
      token: tokens.harbor,
      body: { name: 'Sunset', emoji: '🌅', colour: 'orange' },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect((await zoneOf(tokens.harbor, `/v1/presets/${own.body.data.id}/scenarios`, {})).timeZone).toBe(
      'Pacific/Honolulu',
    );
    expect((await zoneOf(tokens.harbor, '/v1/scenarios', { name: 'Blank' })).timeZone).toBe('Pacific/Honolulu');
    expect(
      (await zoneOf(tokens.harbor, '/v1/scenarios', { name: 'London', run: { timeZone: 'Europe/London' } })).timeZone,
    ).toBe('Europe/London');
    // A hotel in Tokyo still starts in Tokyo.
    expect((await zoneOf(tokens.hotelAdmin, '/v1/presets/builtin:birthday/scenarios', {})).timeZone).toBe('Asia/Tokyo');
    expect((await zoneOf(tokens.hotelAdmin, '/v1/scenarios', { name: '白紙' })).timeZone).toBe('Asia/Tokyo');
  });
});

describe('bad graphs', () => {
  const runOf = async (g: unknown) => {
    const made = await s.call('POST', '/v1/scenarios', { token: tokens.brand, body: { name: '不正', graph: g } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return s.call('POST', `/v1/scenarios/${made.body.data.id}/actions`, {
      token: tokens.brand,
      body: { action: 'run' },
    });
  };

  it('refuses a run with the reason marked on each node', async () => {
    const cases: [unknown, string, string][] = [
      [graph([], []), 'workflow', 'workflow_not_configured'],
      [delayGraph(0), 'nodes.d', 'delay_zero'],
      [delayGraph(3650), 'nodes.d', 'delay_too_long'],
      [
        graph(
          [
            { id: 't', type: 'trigger', data: { kind: 'birthday' } },
            { id: 'a', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'days' } },
            { id: 'b', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'days' } },
          ],
          [
            { id: '1', source: 't', target: 'a' },
            { id: '2', source: 'a', target: 'b' },
            { id: '3', source: 'b', target: 'a' },
          ],
        ),
        'nodes.a',
        'cycle',
      ],
      [
        graph(
          [
            { id: 't', type: 'trigger', data: { kind: 'birthday' } },
            { id: 'u', type: 'trigger', data: { kind: 'check_in_day' } },
            { id: 'lost', type: 'email', data: { templateId: null, subject: '', senderEmail: null } },
          ],
          [],
        ),
        'nodes.t',
        'trigger_leads_nowhere',
      ],
      [
        graph(
          [
            { id: 't', type: 'trigger', data: { kind: 'birthday' } },
            { id: 'd', type: 'delay', data: { kind: 'date', date: '2020-01-01' } },
          ],
          [{ id: '1', source: 't', target: 'd' }],
        ),
        'nodes.d',
        'delay_passed',
      ],
    ];
    for (const [g, field, code] of cases) {
      const res = await runOf(g);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('scenario_invalid');
      expect(res.body.error.fields[field], `${field} ${JSON.stringify(res.body.error.fields)}`).toMatchObject({ code });
      expect(res.body.error.fields[field].message.length).toBeGreaterThan(5);
    }
  });

  it('answers malformed graphs with 400, never 500', async () => {
    const bodies = [
      { name: 'x', graph: { nodes: [{ id: 't', type: 'teleport', data: {} }], edges: [] } },
      {
        name: 'x',
        graph: {
          nodes: [{ id: 'd', type: 'delay', data: { kind: 'duration', amount: 'soon', unit: 'days' } }],
          edges: [],
        },
      },
      { name: 'x', graph: { nodes: [{ id: 'bad id!', type: 'trigger', data: { kind: 'birthday' } }], edges: [] } },
      { name: 'x', graph: { nodes: 'many', edges: [] } },
      { name: 'x', run: { period: { kind: 'recurring', every: 0, unit: 'days' } } },
      { name: 'x', run: { timeZone: 'Mars/Olympus' } },
      { name: '' },
    ];
    for (const body of bodies) {
      const res = await s.call('POST', '/v1/scenarios', { token: tokens.brand, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBeTruthy();
    }
  });
});

describe('presets', () => {
  it('lists the built-in ones, creates and deletes a host preset, and refuses to delete a built-in one', async () => {
    const list = await s.call('GET', '/v1/presets', { token: tokens.viewer });
    expect(list.status).toBe(200);
    expect(
      list.body.data.items
        .filter((p: { builtIn: string | null }) => p.builtIn)
        .map((p: { builtIn: string }) => p.builtIn),
    ).toEqual(['pre_arrival', 'check_in_welcome', 'post_stay_thanks', 'birthday', 'win_back']);
    expect((await s.call('POST', '/v1/presets', { token: tokens.viewer, body: { name: 'x' } })).status).toBe(403);
    const made = await s.call('POST', '/v1/presets', {
      token: tokens.hotelAdmin,
      body: { name: '雨の日', emoji: '☔', colour: 'cyan' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await s.call('DELETE', `/v1/presets/${made.body.data.id}`, { token: tokens.harbor })).status).toBe(404);
    expect((await s.call('DELETE', '/v1/presets/builtin:birthday', { token: tokens.brand })).body.error.code).toBe(
      'preset_built_in',
    );
    expect((await s.call('DELETE', `/v1/presets/${made.body.data.id}`, { token: tokens.hotelAdmin })).status).toBe(200);
    const fromPreset = await s.call('POST', '/v1/presets/builtin:check_in_welcome/scenarios', {
      token: tokens.staff,
      body: {},
    });
    expect(fromPreset.status).toBe(200);
    expect(fromPreset.body.data).toMatchObject({ status: 'draft', presetId: 'builtin:check_in_welcome' });
    expect(
      (await s.call('POST', '/v1/presets/builtin:nothing/scenarios', { token: tokens.staff, body: {} })).status,
    ).toBe(404);
  });

  it("writes a built-in preset's texts into the scenario in the language of the user who made it", async () => {
    const fromPreset = async (token: string | undefined, body: object) => {
      const made = await s.call('POST', '/v1/presets/builtin:pre_arrival/scenarios', { token, body });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const { name, description, graph } = made.body.data;
      const email = graph.nodes.find((n: { type: string }) => n.type === 'email');
      return { name, description, label: email.label };
    };
    const japanese = {
      name: '到着前のご案内',
      description: 'チェックインの3日前に、滞在の準備やアクセスをご案内するメールです。',
      label: 'お待ちしております',
    };
    const english = {
      name: 'Pre-arrival',
      description: 'A mail three days before check-in: what to expect, how to get here.',
      label: 'See you soon',
    };
    // The hotel admin's profile is in Japanese, Harbor View's brand admin's in English.
    expect(await fromPreset(tokens.hotelAdmin, {})).toEqual(japanese);
    expect(await fromPreset(tokens.harbor, {})).toEqual(english);
    // The console's language wins over the profile's; a name given is kept.
    expect(await fromPreset(tokens.hotelAdmin, { language: 'en' })).toEqual(english);
    expect(await fromPreset(tokens.harbor, { language: 'ja', name: '到着前' })).toEqual({
      ...japanese,
      name: '到着前',
    });

    // The list says the same, in the language asked (else the user's).
    const listed = async (token: string | undefined, query = '') =>
      (await s.call('GET', `/v1/presets${query}`, { token })).body.data.items.find(
        (p: { builtIn: string | null }) => p.builtIn === 'pre_arrival',
      );
    expect(await listed(tokens.viewer)).toMatchObject({ name: japanese.name, description: japanese.description });
    expect(await listed(tokens.viewer, '?lang=en')).toMatchObject({
      name: english.name,
      description: english.description,
    });
    expect(await listed(tokens.harbor)).toMatchObject({ name: english.name });
  });
});

describe('the stop sentence', () => {
  it('accepts the sentence typed in Japanese or in English, and refuses anything else', async () => {
    const started = async () => {
      const made = (
        await s.call('POST', '/v1/scenarios', { token: tokens.brand, body: { name: '停止の文', graph: delayGraph(1) } })
      ).body.data;
      expect(
        (await s.call('POST', `/v1/scenarios/${made.id}/actions`, { token: tokens.brand, body: { action: 'run' } }))
          .body.data.status,
      ).toBe('running');
      return made.id as string;
    };
    const stop = (id: string, confirmation?: string) =>
      s.call('POST', `/v1/scenarios/${id}/actions`, { token: tokens.brand, body: { action: 'stop', confirmation } });
    const id = await started();
    for (const wrong of [
      undefined,
      '',
      'この操作は元に戻せません。',
      STOP_SENTENCES.en.toLowerCase(),
      `${STOP_SENTENCES.ja}${STOP_SENTENCES.en}`,
    ]) {
      const refused = await stop(id, wrong);
      expect(refused.status, String(wrong)).toBe(400);
      expect(refused.body.error.fields.confirmation.code).toBe('scenario_stop_confirmation');
    }
    expect((await s.call('GET', `/v1/scenarios/${id}`, { token: tokens.brand })).body.data.status).toBe('running');
    const inJapanese = await stop(id, STOP_SENTENCES.ja);
    expect(inJapanese.status, JSON.stringify(inJapanese.body)).toBe(200);
    expect(inJapanese.body.data.status).toBe('stopped');
    const other = await started();
    const inEnglish = await stop(other, `  ${STOP_SENTENCES.en} `);
    expect(inEnglish.status, JSON.stringify(inEnglish.body)).toBe(200);
    expect(inEnglish.body.data.status).toBe('stopped');
  });
});

describe('the audit log', () => {
  type TEntry = {
    action: string;
    targetType: string;
    targetId: string;
    actorEmail: string | null;
    actingRole: string | null;
    changes: Record<string, unknown>;
  };
  const brandId = async () => (await s.sql(`select id from hosts where slug = 'sakura-hotels'`))[0].id as string;
  /** The brand's audit entries about one target, oldest first, as the audit log page reads them. */
  const entriesOf = async (targetId: string): Promise<TEntry[]> => {
    const res = await s.call('GET', `/v1/audit?hostId=${await brandId()}&limit=200`, { token: tokens.grand });
    expect(res.status).toBe(200);
    return (res.body.data as TEntry[]).filter((e) => e.targetId === targetId).reverse();
  };
  const act = (id: string, action: string, confirmation?: string) =>
    s.call('POST', `/v1/scenarios/${id}/actions`, { token: tokens.brand, body: { action, confirmation } });

  it('records every change of a scenario, with its name, status and who made it; a refused action records nothing', async () => {
    const made = (
      await s.call('POST', '/v1/scenarios', {
        token: tokens.brand,
        body: { name: '監査の誕生日', graph: delayGraph(1) },
      })
    ).body.data;
    const id = made.id as string;
    expect(
      (
        await s.call('PUT', `/v1/scenarios/${id}`, {
          token: tokens.brand,
          body: { name: '監査の誕生日 2', graph: delayGraph(2) },
        })
      ).status,
    ).toBe(200);
    // Saving the same values again (the editor sends the whole graph) changes nothing, and says nothing.
    expect(
      (
        await s.call('PUT', `/v1/scenarios/${id}`, {
          token: tokens.brand,
          body: { name: '監査の誕生日 2', graph: delayGraph(2) },
        })
      ).status,
    ).toBe(200);
    expect((await act(id, 'run')).body.data.status).toBe('running');
    expect((await act(id, 'stop', 'no')).status).toBe(400);
    expect((await act(id, 'stop', STOP_SENTENCES.ja)).body.data.status).toBe('stopped');
    expect((await act(id, 'restart')).body.data.status).toBe('draft');
    // Scheduled (a start in the future), then cancelled back to a draft.
    expect(
      (
        await s.call('PUT', `/v1/scenarios/${id}`, {
          token: tokens.brand,
          body: { run: { startDate: '2099-01-01', startTime: '09:00' } },
        })
      ).status,
    ).toBe(200);
    expect((await act(id, 'run')).body.data.status).toBe('scheduled');
    expect((await act(id, 'cancel')).body.data.status).toBe('draft');
    // A completed run (arranged: the engine completes it when nobody is left inside) resumes.
    await s.sql(`update scenarios set status = 'completed', ends_at = null where id = $1`, [id]);
    expect((await act(id, 'resume')).body.data.status).toBe('running');
    expect((await act(id, 'stop', STOP_SENTENCE)).body.data.status).toBe('stopped');
    const copy = (await s.call('POST', `/v1/scenarios/${id}/copy`, { token: tokens.brand, body: {} })).body.data;
    expect((await s.call('DELETE', `/v1/scenarios/${id}`, { token: tokens.brand })).body.data.status).toBe('archived');
    expect((await act(id, 'restore')).body.data.status).toBe('draft');
    await s.call('DELETE', `/v1/scenarios/${id}`, { token: tokens.brand });
    expect((await s.call('DELETE', `/v1/scenarios/${id}`, { token: tokens.brand })).body.data.status).toBeNull();

    const entries = await entriesOf(id);
    expect(entries.map((e) => [e.action, e.changes.status ?? null])).toEqual([
      ['create', null],
      ['update', null],
      ['run', ['draft', 'running']],
      ['stop', ['running', 'stopped']],
      ['restart', ['stopped', 'draft']],
      ['update', null],
      ['run', ['draft', 'scheduled']],
      ['cancel', ['scheduled', 'draft']],
      ['resume', ['completed', 'running']],
      ['stop', ['running', 'stopped']],
      ['archive', ['stopped', 'archived']],
      ['restore', ['archived', 'draft']],
      ['archive', ['draft', 'archived']],
      ['delete', null],
    ]);
    expect(
      entries.every((e) => e.targetType === 'scenario' && e.actorEmail === DEMO.brandAdmin && e.actingRole === 'admin'),
    ).toBe(true);
    expect(entries[0]?.changes).toEqual({ name: '監査の誕生日' });
    expect(entries[1]?.changes).toEqual({ name: ['監査の誕生日', '監査の誕生日 2'], fields: ['graph'] });
    expect(entries[5]?.changes).toEqual({ name: '監査の誕生日 2', fields: ['run'] });
    expect(entries.at(-1)?.changes).toEqual({ name: '監査の誕生日 2' });
    expect(await entriesOf(copy.id)).toMatchObject([
      {
        action: 'copy',
        targetType: 'scenario',
        changes: { name: '監査の誕生日 2（コピー）', copiedFrom: '監査の誕生日 2' },
      },
    ]);
  });

  it('records presets made and deleted, and a scenario made from one; another brand sees none of it', async () => {
    const made = (
      await s.call('POST', '/v1/presets', {
        token: tokens.hotelAdmin,
        body: { name: '監査のプリセット', emoji: '📝', colour: 'teal' },
      })
    ).body.data;
    expect((await s.call('DELETE', `/v1/presets/${made.id}`, { token: tokens.hotelAdmin })).status).toBe(200);
    expect((await entriesOf(made.id)).map((e) => [e.action, e.targetType, e.changes.name, e.actorEmail])).toEqual([
      ['create', 'preset', '監査のプリセット', DEMO.hotelAdmin],
      ['delete', 'preset', '監査のプリセット', DEMO.hotelAdmin],
    ]);
    const fromPreset = (
      await s.call('POST', '/v1/presets/builtin:birthday/scenarios', {
        token: tokens.hotelAdmin,
        body: { name: '監査の誕生日プリセット' },
      })
    ).body.data;
    expect(await entriesOf(fromPreset.id)).toMatchObject([
      { action: 'create', targetType: 'scenario', changes: { name: '監査の誕生日プリセット' } },
    ]);
    const [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    const theirs = (await s.call('GET', `/v1/audit?hostId=${harbor.id}&limit=200`, { token: tokens.grand })).body
      .data as TEntry[];
    expect(theirs.some((e) => e.targetId === made.id || e.targetId === fromPreset.id)).toBe(false);
  });
});
