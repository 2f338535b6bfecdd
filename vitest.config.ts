import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { POSTGRES_FILES, postgresUrl } from './scripts/test-postgres.ts';

// One vitest run covers every workspace; each is a project so `--project server` runs one alone. With
// TEST_DATABASE_URL (.ci/run sets it when a PostgreSQL answers), the server tests whose behaviour depends on the
// database run a second time on it as the project `server-postgres` (scripts/test-postgres.ts says which and why).

// A server, module or simulator test that fails once (they drive a real broker, database, timers and simulators
// on a shared machine) is run once more and reported as retried; one that fails twice fails the run. This is the
// default CI runs with; TEST_RETRIES=0 fails on the first failure.
const retry = Number(process.env.TEST_RETRIES ?? 1);

const pg = postgresUrl();

const server = {
  root: 'apps/server',
  testTimeout: 30000,
  hookTimeout: 60000,
  retry,
};

// The Node workspaces' tests mock no module and change no global: a worker keeps the modules it has loaded from one
// file to the next instead of loading the whole server again for each (that loading was a third of the suite's CPU).
// The console's tests do the same (loading React and Ant Design for each of them took 98 s of the workers' time
// for 6 s of tests): the one file that mocks a module loads what it tests anew, and a global a file stubbed is put
// back when the file ends (apps/web/src/test-setup.ts). The PostgreSQL pass shares loaded modules too: vitest
// keeps each project's workers apart, so its files all load the server with its TEST_DATABASE_URL.
const shared = { isolate: false };

export default defineConfig({
  test: {
    // Most server, module and simulator tests spend their time waiting on sockets, timers and child programs, not
    // on the CPU: more files at once than cores (vitest's default is one less than the cores, so one on two).
    maxWorkers: Number(process.env.TEST_WORKERS ?? Math.max(2, availableParallelism() * 2)),
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', include: ['src/**/*.test.ts'], ...shared } },
      { test: { name: 'scripts', root: 'scripts', include: ['**/*.test.ts'], ...shared } },
      {
        test: {
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          ...server,
          ...shared,
          // the database the suite runs on is the project's choice, not the shell's
          env: { TEST_DATABASE_URL: '' },
        },
      },
      ...(pg
        ? [
            {
              test: {
                name: 'server-postgres',
                include: POSTGRES_FILES,
                ...server,
                ...shared,
                env: { TEST_DATABASE_URL: pg },
              },
            },
          ]
        : []),
      {
        test: {
          name: 'gateway',
          root: 'apps/gateway',
          include: ['src/**/*.test.ts'],
          testTimeout: 60000,
          retry,
          ...shared,
        },
      },
      {
        test: {
          name: 'simulator',
          root: 'apps/simulator',
          include: ['src/**/*.test.ts'],
          testTimeout: 60000,
          retry,
          ...shared,
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test-setup.ts'],
          ...shared,
        },
      },
    ],
  },
});
