// `tsx src/ess-main.ts`: starts a simulated storage station (PCS, BMS, grid meter, optional PV on one Modbus TCP
// port) and its JSON control endpoint until SIGINT/SIGTERM. `--help` lists the options.
import { parseArgs } from 'node:util';
import { startEssControlServer, type EssControlServer } from './ess-control-server.ts';
import { startEssSite } from './ess-simulator.ts';
import { closeOnSignals } from './process-exit.ts';

const HELP = `Simulated storage station (Modbus TCP: PCS unit 1, BMS 2, meter 3, PV 4)

  --port P             Modbus port (0 = a free one)      ESS_PORT          default 5030
  --host H             listen address                    ESS_HOST          default 127.0.0.1
  --rating-kw X        PCS rated power                   ESS_RATING_KW     default 250
  --capacity-kwh X     battery capacity                  ESS_CAPACITY_KWH  default 500
  --soc X              SOC at start, %                   ESS_SOC           default 50
  --pv-kw X            PV array (0: none)                ESS_PV_KW         default 100
  --load-base-kw X     site load at night                ESS_LOAD_BASE_KW  default 80
  --load-peak-kw X     site load at its evening peak     ESS_LOAD_PEAK_KW  default 300
  --time-zone Z        the site's time zone              ESS_TIME_ZONE     default Asia/Shanghai
  --start ISO          simulated clock start             ESS_START         default now
  --speed X            simulated seconds per second      ESS_SPEED         default 1
  --seed S             random seed                       ESS_SEED          default 1
  --control-port P     JSON control endpoint (off: none) ESS_CONTROL_PORT  default 8503
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}`);
  process.exit(2);
}

function number(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) fail(`${name} must be a number, got "${value}"`);
  return parsed;
}

async function main(): Promise<void> {
  const names = [
    'port',
    'host',
    'rating-kw',
    'capacity-kwh',
    'soc',
    'pv-kw',
    'load-base-kw',
    'load-peak-kw',
    'time-zone',
    'start',
    'speed',
    'seed',
    'control-port',
  ] as const;
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const given = values as Record<string, string | boolean | undefined>;
  const option = (name: (typeof names)[number]): string | undefined => {
    const value = given[name];
    return typeof value === 'string' ? value : process.env[`ESS_${name.replaceAll('-', '_').toUpperCase()}`];
  };
  const host = option('host') ?? '127.0.0.1';
  const startText = option('start');
  const startTs = startText ? Date.parse(startText) : Date.now();
  if (!Number.isFinite(startTs)) fail(`start must be a date and time, got "${startText}"`);
  const controlPortText = option('control-port');
  const controlPort = controlPortText === 'off' ? -1 : number(controlPortText, 8503, 'control port');

  let site;
  try {
    site = await startEssSite({
      port: number(option('port'), 5030, 'port'),
      host,
      pcsRatingKw: number(option('rating-kw'), 250, 'rating'),
      capacityKwh: number(option('capacity-kwh'), 500, 'capacity'),
      initialSoc: number(option('soc'), 50, 'soc'),
      pvRatedKw: number(option('pv-kw'), 100, 'PV'),
      loadBaseKw: number(option('load-base-kw'), 80, 'load base'),
      loadPeakKw: number(option('load-peak-kw'), 300, 'load peak'),
      timeZone: option('time-zone') ?? 'Asia/Shanghai',
      startTs,
      speed: number(option('speed'), 1, 'speed'),
      seed: number(option('seed'), 1, 'seed'),
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  let control: EssControlServer | undefined;
  if (controlPort >= 0) control = await startEssControlServer([site], { port: controlPort, host });

  const units = Object.entries(site.unitIds)
    .map(([device, unitId]) => `${device} ${unitId}`)
    .join(', ');
  process.stdout.write(`storage station ${site.id} on ${host}:${site.port} (units: ${units})\n`);
  if (control) process.stdout.write(`control endpoint: http://${host}:${control.port}/sites/${site.id}\n`);
  process.stdout.write(`clock from ${new Date(site.now()).toISOString()} at ${site.speed}×; Ctrl+C to stop\n`);

  closeOnSignals(
    () => control?.close(),
    () => site.close(),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`storage station simulator failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
