// Where the test command looks for the programs it needs, in order, and what it says when one is missing.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM, findProgram, installHint, MOSQUITTO } from './system-programs.ts';

const none = () => undefined;

describe('finding a system program', () => {
  it('takes the path named by the environment variable first, and a wrong one is a problem, not a fallback', () => {
    const exists = new Set(['/opt/chrome/chrome', '/usr/bin/chromium']);
    const isExecutable = (p: string) => exists.has(p);
    expect(findProgram(CHROMIUM, { env: { CHROMIUM_PATH: '/opt/chrome/chrome', PATH: '' }, isExecutable })).toEqual({
      path: '/opt/chrome/chrome',
      source: 'CHROMIUM_PATH',
    });
    const wrong = findProgram(CHROMIUM, { env: { CHROMIUM_PATH: '/nowhere/chrome', PATH: '' }, isExecutable });
    expect(wrong.path).toBeUndefined();
    expect(wrong.problem).toBe('CHROMIUM_PATH=/nowhere/chrome is not an executable file');
  });

  it("looks in PATH (not node_modules/.bin), then Debian's place, then Playwright's cache", () => {
    const env = { PATH: '/repo/node_modules/.bin:/usr/local/bin' };
    expect(
      findProgram(CHROMIUM, {
        env,
        isExecutable: (p) => p === '/usr/local/bin/chromium' || p === '/repo/node_modules/.bin/chromium',
      }),
    ).toEqual({ path: '/usr/local/bin/chromium', source: 'PATH' });
    expect(
      findProgram(MOSQUITTO, { env, isExecutable: (p) => p === '/usr/sbin/mosquitto', playwrightChromium: none }),
    ).toEqual({ path: '/usr/sbin/mosquitto', source: 'system' });
    const cache = '/root/.cache/ms-playwright/chromium-1200/chrome-linux/chrome';
    expect(findProgram(CHROMIUM, { env, isExecutable: (p) => p === cache, playwrightChromium: () => cache })).toEqual({
      path: cache,
      source: "Playwright's cache",
    });
    expect(findProgram(CHROMIUM, { env, isExecutable: () => false, playwrightChromium: none })).toEqual({});
  });

  it('names the package to install and the variable to set', () => {
    expect(installHint(CHROMIUM)).toBe(
      'Chromium is needed for the browser tests: install it (Debian/Ubuntu: sudo apt-get install -y chromium) ' +
        'or set CHROMIUM_PATH to its path',
    );
  });
});

describe('the preflight of the test command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const preflight = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'preflight.ts'), '--browser'], {
      encoding: 'utf8',
      env: { ...process.env, PREFLIGHT_INSTALL: '0', ...env },
      timeout: 60_000,
    });

  it('stops with one line naming what to install when the browser named is missing', () => {
    const result = preflight({ CHROMIUM_PATH: join(dir, 'no-such-chromium') });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('sudo apt-get install -y chromium');
  });

  it('stops with one line when the browser found does not start', () => {
    const fake = join(dir, 'broken-chromium');
    writeFileSync(fake, '#!/bin/sh\necho "error while loading shared libraries: libnss3.so" >&2\nexit 127\n');
    chmodSync(fake, 0o755);
    const result = preflight({ CHROMIUM_PATH: fake });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('does not start (error while loading shared libraries: libnss3.so)');
  });
});
