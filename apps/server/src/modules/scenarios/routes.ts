import { experimentsApi, scenariosApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { route, type TAccess } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { advanceClock, scenarioNow } from './clock.ts';
import { runScenarioTick } from './run-tick.ts';
import {
  actOnScenario,
  copyScenario,
  createPreset,
  createScenario,
  deletePreset,
  deleteScenario,
  emailDetails,
  executionLog,
  getScenario,
  getScenarioHoldout,
  listJourneys,
  listPresets,
  listScenarios,
  scenarioFromPreset,
  updateScenario,
  validateScenario,
} from './scenario-operations.ts';

type TRule = Exclude<TAccess, 'public'>;

/** Most ticks one clock move runs (each ends when nothing more is due). */
const TICKS_PER_MOVE = 5;

export function scenarioRoutes(app: FastifyInstance, rt: TRuntime): void {
  const read: TRule = { entitlement: 'scenarios.read_scenario' };
  const create: TRule = { entitlement: 'scenarios.create' };
  const edit: TRule = { entitlement: 'scenarios.update' };

  route(app, scenariosApi.list, read, async ({ query, ctx }) => listScenarios(rt, ctx, query));
  route(app, scenariosApi.validate, { anyOf: ['scenarios.create', 'scenarios.update'] }, async ({ body, ctx }) =>
    validateScenario(rt, ctx, body.graph, body.run ?? scenariosApi.ZScenarioRunInput.parse({})),
  );
  route(app, scenariosApi.create, create, async ({ body, ctx }) => createScenario(rt, ctx, body));
  route(app, scenariosApi.get, read, async ({ params, ctx }) => getScenario(rt, ctx, uuid(params.id)));
  // Issue 26: the scenario's holdout comparison.
  route(app, experimentsApi.scenarioHoldout, read, async ({ params, ctx }) =>
    getScenarioHoldout(rt, ctx, uuid(params.id)),
  );
  route(app, scenariosApi.update, edit, async ({ params, body, ctx }) =>
    updateScenario(rt, ctx, uuid(params.id), body),
  );
  route(app, scenariosApi.remove, { entitlement: 'scenarios.delete' }, async ({ params, ctx }) =>
    deleteScenario(rt, ctx, uuid(params.id)),
  );
  route(app, scenariosApi.copy, create, async ({ params, body, ctx }) => copyScenario(rt, ctx, uuid(params.id), body));
  route(app, scenariosApi.action, edit, async ({ params, body, ctx }) =>
    actOnScenario(rt, ctx, uuid(params.id), body.action, body.confirmation),
  );
  route(app, scenariosApi.executionLog, read, async ({ params, ctx }) => executionLog(rt, ctx, uuid(params.id)));
  route(app, scenariosApi.journeys, read, async ({ params, query, ctx }) =>
    listJourneys(rt, ctx, uuid(params.id), query),
  );
  route(app, scenariosApi.emailDetails, read, async ({ params, ctx }) => emailDetails(rt, ctx, uuid(params.id)));

  route(app, scenariosApi.presetList, { entitlement: 'presets.read_preset' }, async ({ query, ctx }) =>
    listPresets(rt, ctx, query.lang),
  );
  route(app, scenariosApi.presetCreate, { entitlement: 'presets.create' }, async ({ body, ctx }) =>
    createPreset(rt, ctx, body),
  );
  route(app, scenariosApi.presetRemove, { entitlement: 'presets.delete' }, async ({ params, ctx }) =>
    deletePreset(rt, ctx, params.id ?? ''),
  );
  route(app, scenariosApi.presetUse, create, async ({ params, body, ctx }) =>
    scenarioFromPreset(rt, ctx, params.id ?? '', body),
  );

  // Development and test aids: the manual clock (SCENARIO_CLOCK=manual). The engine first catches up
  // with the clock as it stands (a scenario run a moment ago may not have had its first tick: its
  // guests would otherwise first be looked at after the move, when their stays' moments are past),
  // then the clock moves and the engine ticks at once. The worker's own ticks in this process are
  // held meanwhile, and one under way is waited for: the journeys it had claimed were skipped by
  // these ticks, and the answer came before they had moved.
  route(app, scenariosApi.clockGet, 'embedded-granduser', async () => ({
    now: (await scenarioNow(rt)).toISOString(),
    manual: rt.config.scenarios.clock === 'manual',
  }));
  route(app, scenariosApi.clockAdvance, 'embedded-granduser', async ({ body }) => {
    const tickUntilIdle = async (at: Date) => {
      let steps = 0;
      for (let i = 0; i < TICKS_PER_MOVE; i++) {
        const n = await runScenarioTick(rt, at);
        steps += n;
        if (n === 0) break;
      }
      return steps;
    };
    const move = async () => {
      const caughtUp = rt.config.scenarios.clock === 'manual' ? await tickUntilIdle(await scenarioNow(rt)) : 0;
      const now = await advanceClock(rt, body);
      const steps = caughtUp + (await tickUntilIdle(now));
      return { now: now.toISOString(), manual: true, steps };
    };
    return rt.clockHold ? rt.clockHold.during(move) : move();
  });
}
