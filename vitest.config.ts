import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, in the order they should start: with two files at a time, a long
 * file that starts late is the layer's tail (campaign-kill alone is about 4 of the integration
 * layer's 9 minutes). Vitest would start them first only once its results cache knows their
 * durations, which a fresh clone (CI) does not have; it orders unknown files by size instead.
 */
const SLOWEST_FIRST = [
  'apps/server/src/modules/campaigns/campaign-kill.int.test.ts',
  'apps/server/src/jobs/leases.int.test.ts',
  'apps/server/src/modules/scenarios/scenario-kill.int.test.ts',
  'apps/server/src/modules/campaigns/campaign-takeover.int.test.ts',
  'apps/server/src/modules/customer-imports/customer-imports.int.test.ts',
  'e2e/campaigns/campaigns.e2e.ts',
  'e2e/segmentation/segmentation.e2e.ts',
  'e2e/customers/customers.e2e.ts',
  'e2e/users/users.e2e.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOWEST_FIRST.indexOf(relative(import.meta.dirname, file.moduleId));
      return at === -1 ? SLOWEST_FIRST.length : at;
    };
    // Stable: the rest keep vitest's order, after the named ones.
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map(({ file }) => file);
  }
}

/** Default limits of a test and of a hook (a test that needs more says so itself). */
const TIMEOUTS = {
  server: { test: 60_000, hook: 120_000 },
  e2e: { test: 120_000, hook: 180_000 },
};

/**
 * Test layers (DESIGN section 8). `npm test` (scripts/test.mjs) runs them in order:
 * unit and web first, then integration over real PostgreSQL, then the PGlite smoke pass, then e2e.
 */
export default defineConfig({
  test: {
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/booking-sim/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
          // One module graph per worker, not per file (36 s against 19 s); the files pass in any
          // order (tried with --sequence.shuffle.files).
          isolate: false,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // One module graph and jsdom per worker, not per file: importing Mantine and building
          // jsdom again for each of 67 files took three quarters of the layer (181 s against 41 s).
          // The setup file empties what modules keep between tests.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          // CI's machines differ threefold (the whole run 892 s on one, 3,039 s on another): the
          // limits catch a hang, so they leave room for the slowest (on a slow 2-core machine the
          // slowest test under the default took 18.5 s; 30 s failed the entitlement matrix).
          testTimeout: TIMEOUTS.server.test,
          hookTimeout: TIMEOUTS.server.hook,
          // Two files at a time: each copies its own database from the template, and a file waits
          // mostly on timers, SMTP and PostgreSQL (about half of two cores busy with one file).
          fileParallelism: true,
          maxWorkers: 2,
          // One module graph per worker, not per file: importing the server again for each of 68
          // files took 234 s of the layer's 1,045 test-seconds on Node 24 (CI at 7a49e95: 661 s in
          // all; 532 s without). Each file still starts its own server and database; what a module
          // keeps per process (the metrics registry) is read as a difference by the tests.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration-pglite',
          // Sign-in, the customer list's one-round-trip read, segments and their compiler, templates, the scenario clock, a campaign's send, the relay webhooks and the tables' maintenance, on the embedded database too.
          include: [
            'apps/server/src/modules/auth/**/*.int.test.ts',
            'apps/server/src/modules/customers/customers.int.test.ts',
            'apps/server/src/modules/segments/segments.int.test.ts',
            // The compiler against the evaluator, and the customers' check-in days kept by triggers.
            'apps/server/src/modules/segments/filter.property.int.test.ts',
            'apps/server/src/modules/templates/templates.int.test.ts',
            'apps/server/src/modules/scenarios/scenario-clock.int.test.ts',
            // A campaign sent (the send's one-round-trip commit runs on PGlite as a transaction) and the relay webhooks.
            'apps/server/src/modules/campaigns/campaign-send.int.test.ts',
            'apps/server/src/modules/deliverability/webhooks/relay-webhooks.int.test.ts',
            // The worker's own vacuum, which the embedded database (no autovacuum there) depends on.
            'apps/server/src/db/maintenance.int.test.ts',
          ],
          environment: 'node',
          env: { YADO_TEST_DB: 'pglite' },
          testTimeout: TIMEOUTS.server.test,
          hookTimeout: TIMEOUTS.server.hook,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          // The slowest e2e tests took 45 to 51 s on a slow 2-core machine (experiments, handover).
          testTimeout: TIMEOUTS.e2e.test,
          hookTimeout: TIMEOUTS.e2e.hook,
          // Two spec files at a time, each on its own product (support/global-setup.ts): a spec
          // waits mostly on the product and the browser, so two keep both cores busy.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
