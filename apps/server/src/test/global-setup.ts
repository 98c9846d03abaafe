import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config.ts';
import { startRuntime } from '../start.ts';
import { TEMPLATE_DB, adminQuery, databaseUrl, postgresAnswers } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabaseUrl: string | null;
  }
}

/**
 * Builds one migrated, seeded template database per run; each test file copies it (CREATE
 * DATABASE ... TEMPLATE takes a fraction of a second), so files never see each other's writes.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.YADO_TEST_DB === 'pglite' || !(await postgresAnswers())) {
    project.provide('templateDatabaseUrl', null);
    return async () => {};
  }
  await adminQuery(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await adminQuery(`create database ${TEMPLATE_DB}`);
  const url = databaseUrl(TEMPLATE_DB);
  const config = loadConfig(
    {
      DATABASE_URL: url,
      SMTP_URL: 'smtp://127.0.0.1:1',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'true',
      DATA_DIR: '/tmp/yado-test',
    },
    { jwtSecret: 'x'.repeat(48) },
  );
  // Migrates, seeds and creates the job queue's schema; then lets go so the template can be copied.
  // No booking simulator: the template holds no synced data, tests that need some sync their own.
  const rt = await startRuntime(config, { bookingSim: false });
  await rt.stop();
  project.provide('templateDatabaseUrl', url);
  return async () => {
    await adminQuery(`drop database if exists ${TEMPLATE_DB} with (force)`);
  };
}
