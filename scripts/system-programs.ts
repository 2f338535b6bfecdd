// Where the system programs some tests need are found: Chromium for the browser tests, Mosquitto for the
// external-broker legs, ffmpeg for video. Finding has no side effects (the Playwright configuration and the
// tests ask it); getting a missing program is the test command's preflight (scripts/preflight.ts).
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

export interface SystemProgram {
  /** What the program is called in messages. */
  name: string;
  /** Environment variable that names the program's path explicitly. */
  envVar: string;
  /** Executable names looked up in PATH, in order. */
  commands: string[];
  /** Absolute paths tried after PATH (Debian's places). */
  paths: string[];
  /** The Debian package that brings it. */
  debianPackage: string;
  /** What the tests lose without it. */
  neededFor: string;
  /** The browser tests cannot run without it; the others are skipped with a printed reason. */
  required: boolean;
}

export const CHROMIUM: SystemProgram = {
  name: 'Chromium',
  envVar: 'CHROMIUM_PATH',
  // Chromium's headless shell first where it is installed (Debian's chromium-headless-shell, the build Playwright
  // itself runs headless): without the browser's own interface it takes less of a small machine's CPU
  commands: ['chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'],
  paths: ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'],
  debianPackage: 'chromium',
  neededFor: 'the browser tests',
  required: true,
};

export const MOSQUITTO: SystemProgram = {
  name: 'Mosquitto',
  envVar: 'MOSQUITTO_PATH',
  commands: ['mosquitto'],
  paths: ['/usr/sbin/mosquitto', '/usr/local/sbin/mosquitto'],
  debianPackage: 'mosquitto',
  neededFor: 'the server tests against an external MQTT broker',
  required: false,
};

export const FFMPEG: SystemProgram = {
  name: 'ffmpeg',
  envVar: 'FFMPEG_PATH',
  commands: ['ffmpeg'],
  paths: ['/usr/bin/ffmpeg', '/usr/local/bin/ffmpeg'],
  debianPackage: 'ffmpeg',
  neededFor: 'the video tests',
  required: false,
};

export const SYSTEM_PROGRAMS = [CHROMIUM, MOSQUITTO, FFMPEG];

export interface FindOptions {
  env?: NodeJS.ProcessEnv;
  /** Whether a path is an executable file (replaced in tests). */
  isExecutable?: (path: string) => boolean;
  /** Playwright's own browser, when its cache holds one (replaced in tests). */
  playwrightChromium?: () => string | undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium that Playwright's installer put in its cache, if there is one. */
export function playwrightCacheChromium(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require('playwright-core') as { chromium: { executablePath(): string } };
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export interface Found {
  path?: string;
  /** Where it was found. */
  source?: string;
  /** Why a named path was not taken. */
  problem?: string;
}

/**
 * The program's path: the environment variable when it is set (a wrong one is a problem, not a fallback, so
 * nobody tests against another browser than the one they named), else PATH, Debian's places, and for
 * Chromium Playwright's cache.
 */
export function findProgram(program: SystemProgram, opts: FindOptions = {}): Found {
  const env = opts.env ?? process.env;
  const isExecutable = opts.isExecutable ?? executable;
  const named = env[program.envVar];
  if (named) {
    return isExecutable(named)
      ? { path: named, source: program.envVar }
      : { problem: `${program.envVar}=${named} is not an executable file` };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const command of program.commands) {
      const path = join(dir, command);
      // The project's own node_modules/.bin never holds a real browser or broker.
      if (!dir.includes('node_modules') && isExecutable(path)) return { path, source: 'PATH' };
    }
  }
  for (const path of program.paths) if (isExecutable(path)) return { path, source: 'system' };
  if (program === CHROMIUM) {
    const cached = (opts.playwrightChromium ?? playwrightCacheChromium)();
    if (cached && isExecutable(cached)) return { path: cached, source: "Playwright's cache" };
  }
  return {};
}

/** The path of a program, or undefined. */
export function programPath(program: SystemProgram): string | undefined {
  return findProgram(program).path;
}

/** One line saying how to get the program. */
export function installHint(program: SystemProgram): string {
  return (
    `${program.name} is needed for ${program.neededFor}: install it (Debian/Ubuntu: ` +
    `sudo apt-get install -y ${program.debianPackage}) or set ${program.envVar} to its path`
  );
}

const announced = new Set<string>();

/**
 * For tests: the program's path, or undefined after printing once why the tests that need it are skipped.
 */
export function programForTests(program: SystemProgram, what: string): string | undefined {
  const found = findProgram(program);
  if (found.path) return found.path;
  const key = `${program.name}|${what}`;
  if (!announced.has(key)) {
    announced.add(key);
    console.warn(`Skipped: ${what}. ${found.problem ? `${found.problem}. ` : ''}${installHint(program)}.`);
  }
  return undefined;
}
