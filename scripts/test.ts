// `npm test`: every check in order (the programs the tests need, lint and typecheck side by side, the unit, API and
// module tests with the database leg, the console's build, the browser tests), stopping at the first step that
// fails, then how long each phase took. Each phase is an npm script of its own, so any one runs alone.
import { spawn } from 'node:child_process';

// Lint and typecheck each keep one core busy and read the same files: side by side they take the time of the
// longer one. The test phases each use every core, so they run one after another.
const STEPS: readonly (readonly string[])[] = [['preflight'], ['lint', 'typecheck'], ['test:unit'], ['test:browser']];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const took: { phase: string; seconds: number; ok: boolean }[] = [];

function report() {
  const width = Math.max(...took.map((t) => t.phase.length), 'total'.length);
  const lines = took.map((t) => `  ${t.phase.padEnd(width)}  ${clock(t.seconds)}${t.ok ? '' : '  FAILED'}`);
  const total = (performance.now() - startedAt) / 1000;
  process.stdout.write(`\nPhase times:\n${lines.join('\n')}\n  ${'total'.padEnd(width)}  ${clock(total)}\n`);
}

function clock(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Runs one phase; alone it writes as it goes, beside another its output is written whole when it ends. */
function run(phase: string, alone: boolean): Promise<{ phase: string; seconds: number; ok: boolean; output: string }> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(npm, ['run', '--silent', phase], { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => done({ phase, seconds: (performance.now() - started) / 1000, ok: code === 0, output }));
  });
}

const startedAt = performance.now();
for (const step of STEPS) {
  const alone = step.length === 1;
  if (!alone) process.stdout.write(`\n> ${step.join(' and ')}, side by side\n`);
  const results = await Promise.all(step.map((phase) => run(phase, alone)));
  for (const r of results) {
    if (!alone) process.stdout.write(`\n> ${r.phase} (${clock(r.seconds)}${r.ok ? '' : ', FAILED'})\n${r.output}`);
    took.push({ phase: r.phase, seconds: r.seconds, ok: r.ok });
  }
  if (results.some((r) => !r.ok)) {
    report();
    process.exit(1);
  }
}
report();
