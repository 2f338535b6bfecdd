// `npm run simulate`: starts N simulated genset controllers (and the JSON control endpoint) until SIGINT/SIGTERM.
// Options come from arguments or environment variables; `--help` lists them.
import { parseArgs } from 'node:util';
import { startControlServer, type ControlServer } from './control-server.ts';
import { startGensetFleet } from './fleet.ts';
import type { LayoutName } from './layouts.ts';
import { closeOnSignals } from './process-exit.ts';

const HELP = `Simulated genset controllers (Modbus TCP)

  --count N            number of controllers            SIM_COUNT         default 2
  --layouts S,G        layouts handed out in turn       SIM_LAYOUTS       default S,G
  --port P             first port (0 = free ports)      SIM_PORT          default 5020
  --shared-port        all controllers on one port,     SIM_SHARED_PORT=1
                       unit ids 1…N
  --host H             listen address                   SIM_HOST          default 127.0.0.1
  --time-scale X       simulated seconds per second     SIM_TIME_SCALE    default 1
  --seed S             random seed                      SIM_SEED          default 1
  --control-port P     JSON control endpoint (off: none) SIM_CONTROL_PORT default 8502

With npm, pass options after two "--" (npm run simulate -- -- --count 4) or as environment variables.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}`);
  process.exit(2);
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) fail(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string' },
      layouts: { type: 'string' },
      port: { type: 'string' },
      'shared-port': { type: 'boolean' },
      host: { type: 'string' },
      'time-scale': { type: 'string' },
      seed: { type: 'string' },
      'control-port': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const env = process.env;
  const count = integer(values.count ?? env.SIM_COUNT, 2, 'count');
  const layouts = (values.layouts ?? env.SIM_LAYOUTS ?? 'S,G').split(',').map((layout) => layout.trim().toUpperCase());
  if (layouts.length === 0 || layouts.some((layout) => layout !== 'S' && layout !== 'G')) {
    fail(`layouts must be a list of S and G, got "${layouts.join(',')}"`);
  }
  const timeScale = Number(values['time-scale'] ?? env.SIM_TIME_SCALE ?? 1);
  if (!Number.isFinite(timeScale) || timeScale <= 0) fail('time scale must be a positive number');
  const host = values.host ?? env.SIM_HOST ?? '127.0.0.1';
  const controlPortText = values['control-port'] ?? env.SIM_CONTROL_PORT;
  const controlPort = controlPortText === 'off' ? -1 : integer(controlPortText, 8502, 'control port');

  const fleet = await startGensetFleet({
    count,
    layouts: layouts as LayoutName[],
    basePort: integer(values.port ?? env.SIM_PORT, 5020, 'port'),
    sharedPort: values['shared-port'] ?? env.SIM_SHARED_PORT === '1',
    host,
    seed: integer(values.seed ?? env.SIM_SEED, 1, 'seed'),
    timeScale,
  });
  let control: ControlServer | undefined;
  if (controlPort >= 0) control = await startControlServer(fleet.simulators, { port: controlPort, host });

  for (const simulator of fleet.simulators) {
    process.stdout.write(
      `controller ${simulator.id}: layout ${simulator.layout} (${simulator.document.key} v${simulator.document.version}) ` +
        `on ${host}:${simulator.port} unit ${simulator.unitId}\n`,
    );
  }
  if (control) process.stdout.write(`control endpoint: http://${host}:${control.port}/simulators\n`);
  process.stdout.write(`time scale ${timeScale}×; Ctrl+C to stop\n`);

  closeOnSignals(
    () => control?.close(),
    () => fleet.close(),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
