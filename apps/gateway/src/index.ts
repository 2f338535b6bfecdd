// Programmatic entry of the cloud module, so the server's demo mode and tests can run modules in-process.
export { startGateway, type Gateway, type GatewayOptions, type GatewayStats } from './gateway.ts';
export {
  gatewayConfigSchema,
  loadGatewayConfig,
  parseGatewayConfig,
  type GatewayConfig,
  type GatewayConfigInput,
  type PortConfig,
} from './config.ts';
export { consoleLogger, silentLogger, type GatewayLogger } from './logger.ts';
export type { ControllerStatus } from './controller-poller.ts';
export { buildModuleImage, readModuleImageHeader, downloadWithResume, sha256File, type OtaStats } from './ota.ts';
export { decide, SOC_LATCH_OPEN, type EmsDecision, type EmsMeasurements, type SocLatch } from './ems/strategies.ts';
