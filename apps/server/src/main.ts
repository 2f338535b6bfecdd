// The server program: reads configuration, starts, says where it is and how to sign in, and closes
// everything on SIGTERM/SIGINT within a grace period.
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';
import { DEMO_ACCOUNTS, DEMO_ADMIN, DEMO_PASSWORD } from './seed/demo.ts';

const GRACE_MS = 10_000;

async function main() {
  const config = loadConfig();
  const admin =
    process.env.ADMIN_ACCOUNT && process.env.ADMIN_PASSWORD
      ? { account: process.env.ADMIN_ACCOUNT, password: process.env.ADMIN_PASSWORD }
      : undefined;
  const server = await startServer({}, admin ? { admin } : {});
  const log = server.app.log;
  const port = new URL(server.url).port;
  log.info(
    `console listening on http://localhost:${port} (database: ${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')})`,
  );
  const brokerPort = server.app.devices.transport.port;
  if (brokerPort !== undefined) log.info(`cloud modules connect to mqtt://<this host>:${brokerPort}`);
  if (config.demo) {
    // the demo's code (simulators, module code) is loaded only when the demo runs
    const { DEMO_SETS } = await import('./modules/devices/demo-fleet.ts');
    const { DEMO_STATIONS } = await import('./modules/devices/demo-stations.ts');
    const lines = [
      `Demo sign-in at http://localhost:${port}/login`,
      `  Platform administrator  ${DEMO_ADMIN.account} / ${DEMO_ADMIN.password}`,
      ...DEMO_ACCOUNTS.map((a) => `  ${a.label.padEnd(22)}  ${a.account} / ${DEMO_PASSWORD}`),
      `  One-time codes (SMS / e-mail) are written to ${config.outboxDir}/messages.jsonl`,
      ...(config.demoFleet
        ? [
            `  ${DEMO_SETS.length} demo gensets run on simulated controllers and cloud modules (DEMO_FLEET=0 turns them off)`,
            ...(config.demoBackfillDays > 0
              ? [
                  `  On a fresh start they are first given their last ${config.demoBackfillDays} days of history (DEMO_BACKFILL_DAYS=0: none)`,
                ]
              : []),
            `  ${DEMO_STATIONS.length} demo storage stations run on simulated sites, each by its own module's EMS (My stations)`,
            ...(config.demoStationBackfillDays > 0
              ? [
                  `  On a fresh start they first live their last ${config.demoStationBackfillDays} days (DEMO_STATION_BACKFILL_DAYS=0: none)`,
                ]
              : []),
          ]
        : []),
    ];
    console.log(`\n${lines.join('\n')}\n`);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown took too long, exiting');
      process.exit(1);
    }, GRACE_MS);
    timer.unref();
    server
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'error while shutting down');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
