// The test command's first step: finds the system programs the tests need, gets a missing one where it can
// (Debian's package when run as root, else Playwright's own installer for Chromium), and otherwise stops at
// once with one line naming what to install (Chromium) or says which tests will be skipped (the others).
//
//   tsx scripts/preflight.ts             every program
//   tsx scripts/preflight.ts --browser   Chromium only
//
// PREFLIGHT_INSTALL=0 never installs anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHROMIUM,
  findProgram,
  installHint,
  SYSTEM_PROGRAMS,
  type Found,
  type SystemProgram,
} from './system-programs.ts';

const mayInstall = process.env.PREFLIGHT_INSTALL !== '0';
const isRoot = process.getuid?.() === 0;
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

function run(command: string, args: string[], timeoutMs: number): boolean {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: timeoutMs,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

let aptUpdated = false;
function aptInstall(pkg: string): boolean {
  if (!mayInstall || !isRoot || !hasApt) return false;
  console.log(`Installing Debian's ${pkg} …`);
  if (!aptUpdated) aptUpdated = run('apt-get', ['update', '-qq'], 300_000);
  return run('apt-get', ['install', '-y', '-qq', pkg], 900_000);
}

function playwrightInstall(): boolean {
  if (!mayInstall) return false;
  console.log("Trying Playwright's installer for Chromium …");
  // A closed network fails in a moment; a slow one is given up on, so the command still stops soon.
  return run('npx', ['--no-install', 'playwright', 'install', 'chromium'], 45_000);
}

/** Starts the browser once on an empty page: a browser missing its libraries fails here, not in 80 tests. */
function launches(path: string): string | undefined {
  const profile = mkdtempSync(join(tmpdir(), 'preflight-chromium-'));
  try {
    const result = spawnSync(
      path,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--dump-dom',
        'about:blank',
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (result.status === 0 && result.stdout.includes('<html')) return undefined;
    const reason = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n').pop();
    return reason ?? 'it did not start';
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

function get(program: SystemProgram): Found {
  let found = findProgram(program);
  if (found.path || found.problem) return found;
  if (aptInstall(program.debianPackage)) found = findProgram(program);
  if (!found.path && program === CHROMIUM && !(isRoot && hasApt) && playwrightInstall()) found = findProgram(program);
  return found;
}

const wanted = process.argv.includes('--browser') ? [CHROMIUM] : SYSTEM_PROGRAMS;
let failed = false;
// Chromium's headless shell runs the browser tests on less CPU than the full browser; got where it can be, and the
// full browser serves where it cannot.
if (!process.env[CHROMIUM.envVar] && !findProgram(CHROMIUM).path?.endsWith('headless-shell')) {
  aptInstall('chromium-headless-shell');
}
for (const program of wanted) {
  const found = get(program);
  if (program === CHROMIUM && found.path) {
    const problem = launches(found.path);
    if (problem) {
      console.error(
        `${program.name} at ${found.path} does not start (${problem}): install Debian's chromium ` +
          `(sudo apt-get install -y chromium) or set ${program.envVar} to a working browser`,
      );
      failed = true;
    }
    continue;
  }
  if (found.path) continue;
  const why = found.problem ? `${found.problem}. ` : '';
  if (program.required) {
    console.error(`${why}${installHint(program)}.`);
    failed = true;
  } else {
    console.warn(`Skipped: ${program.neededFor}. ${why}${installHint(program)}.`);
  }
}
process.exit(failed ? 1 : 0);
