import { defineConfig } from 'vitest/config';

// One vitest run covers every workspace; each is a project so `--project server` runs one alone.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      { test: { name: 'gateway', root: 'apps/gateway', include: ['src/**/*.test.ts'], testTimeout: 60000 } },
      { test: { name: 'simulator', root: 'apps/simulator', include: ['src/**/*.test.ts'], testTimeout: 60000 } },
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
