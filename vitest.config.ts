import { defineConfig } from 'vitest/config';

// One vitest run covers every workspace; each is a project so `--project server` runs one alone.

// .ci/run sets TEST_RETRIES=1: a server, module or simulator test that fails once (they drive a real broker,
// database, timers and simulators on a shared machine) is run once more; one that fails twice fails the run.
const retry = Number(process.env.TEST_RETRIES ?? 0);

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', include: ['src/**/*.test.ts'] } },
      { test: { name: 'scripts', root: 'scripts', include: ['**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
          retry,
        },
      },
      { test: { name: 'gateway', root: 'apps/gateway', include: ['src/**/*.test.ts'], testTimeout: 60000, retry } },
      {
        test: { name: 'simulator', root: 'apps/simulator', include: ['src/**/*.test.ts'], testTimeout: 60000, retry },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
