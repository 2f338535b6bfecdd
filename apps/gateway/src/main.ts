// Command line of the cloud module: configuration from GATEWAY_CONFIG and/or the environment, clean shutdown
// on SIGINT/SIGTERM.
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './gateway.ts';
import { consoleLogger } from './logger.ts';

async function main(): Promise<void> {
  const config = loadGatewayConfig(process.env);
  const logger = consoleLogger(config.modemId);
  logger.info(`broker ${config.brokerUrl}, outbox in ${config.dataDir}`);
  const gateway = await startGateway(config, { logger });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: closing`);
    // Past the grace period something hangs; leave rather than keep a half-closed module running.
    setTimeout(() => process.exit(1), 10_000).unref();
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`close failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
