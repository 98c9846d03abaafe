import { defineConfig } from 'vitest/config';

/**
 * Test layers (DESIGN section 8). `npm test` (scripts/test.mjs) runs them in order:
 * unit and web first, then integration over real PostgreSQL, then the PGlite smoke pass, then e2e.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/booking-sim/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
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
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores: one file at a time keeps PostgreSQL and argon2 from starving each other.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'integration-pglite',
          // Sign-in, the customer list's one-round-trip read, segments and their compiler, templates and the scenario clock, on the embedded database too.
          include: [
            'apps/server/src/modules/auth/**/*.int.test.ts',
            'apps/server/src/modules/customers/customers.int.test.ts',
            'apps/server/src/modules/segments/segments.int.test.ts',
            // The compiler against the evaluator, and the customers' check-in days kept by triggers.
            'apps/server/src/modules/segments/filter.property.int.test.ts',
            'apps/server/src/modules/templates/templates.int.test.ts',
            'apps/server/src/modules/scenarios/scenario-clock.int.test.ts',
          ],
          environment: 'node',
          env: { YADO_TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
