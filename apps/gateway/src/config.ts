// Configuration of a cloud module: who it is, where its broker is, and which controllers sit on which port.
// Read from a JSON file and/or environment variables, validated once by a zod schema.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { modbusUnitAddress, modemIdField, modemPortName } from '@genset/protocol';

const controllerConfig = z.object({
  /** Modbus unit id (slave address) of the controller on its port. */
  address: modbusUnitAddress(),
  /** Controller model as the installer knows it; passed on in `hello` to help the cloud pick a protocol. */
  model: z.string().max(64).optional(),
});

const portCommon = {
  /** Name the cloud uses for this port in plans, data and requests; defaults to `port1`, `port2`, … */
  name: modemPortName().optional(),
  controllers: z.array(controllerConfig).min(1).max(32),
};

const tcpPortConfig = z.object({
  ...portCommon,
  host: z.string().min(1),
  port: z.int().min(1).max(65535).default(502),
});

const serialPortConfig = z.object({
  ...portCommon,
  device: z.string().min(1),
  baudRate: z.int().positive().default(9600),
  parity: z.enum(['none', 'even', 'odd']).default('none'),
  dataBits: z.union([z.literal(7), z.literal(8)]).default(8),
  stopBits: z.union([z.literal(1), z.literal(2)]).default(1),
});

const backoffConfig = z.object({ minMs: z.int().min(10), maxMs: z.int().min(10) });

export const gatewayConfigSchema = z
  .object({
    modemId: modemIdField(),
    /** MQTT password; the username is the modem id. */
    secret: z.string().min(1),
    brokerUrl: z.string().min(1).default('mqtt://localhost:1883'),
    model: z.string().max(64).default('genset-gateway'),
    firmware: z.string().max(64).default('0.1.0'),
    imei: z.string().max(32).default(''),
    iccid: z.string().max(32).default(''),
    /** The SIM's IMSI, when the modem can read it; empty: not reported. */
    imsi: z.string().max(32).default(''),
    /** Where the outbox database lives; one file per modem id. */
    dataDir: z.string().min(1).default('./data/gateway'),
    ports: z
      .array(z.union([tcpPortConfig, serialPortConfig]))
      .max(16)
      .default([]),
    /** How long a controller may take to answer one Modbus request. */
    modbusTimeoutMs: z.int().min(50).max(60000).default(2000),
    /** Data messages kept for the cloud at most; past that the oldest are dropped (and logged). */
    outboxMaxMessages: z.int().min(10).default(500_000),
    /** QoS 1 data messages on the wire without a PUBACK yet. */
    inflightWindow: z.int().min(1).max(1000).default(20),
    /**
     * Data sent but not acked for this long goes again from the oldest, without waiting for a reconnect (the
     * server instance that took it may have died before storing it; the cloud ignores seqs it has).
     */
    ackTimeoutMs: z.int().min(1000).max(3_600_000).default(60_000),
    /**
     * Seqs up to this one were already given out for this module (its past, replayed into the cloud by someone
     * else, as the demo's history is): its own numbering starts above, so the cloud takes nothing for a resend.
     */
    seqsTakenUpTo: z.int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    /** In `changes` mode, a snapshot is sent at least every so many periods even when nothing changed. */
    fullSnapshotEvery: z.int().min(1).default(10),
    /** Until the cloud sends a plan with its own rate. */
    eventRateMs: z.int().min(100).default(60_000),
    mqttKeepaliveS: z.int().min(5).max(3600).default(60),
    mqttReconnect: backoffConfig.default({ minMs: 1000, maxMs: 60_000 }),
    modbusReconnect: backoffConfig.default({ minMs: 500, maxMs: 30_000 }),
    /** A new firmware version that has not connected to the broker within this long is rolled back. */
    otaRollbackMs: z.int().min(100).max(86_400_000).default(300_000),
    /** A firmware download that was cut is continued after these waits, at most `otaDownloadAttempts` times in a row. */
    otaDownloadRetry: backoffConfig.default({ minMs: 1000, maxMs: 30_000 }),
    otaDownloadAttempts: z.int().min(1).max(1000).default(20),
    /** Fixed position of a stationary site, sent in `event` when the module has no GPS receiver of its own. */
    gps: z
      .object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180), alt: z.number().optional() })
      .optional(),
  })
  .superRefine((config, ctx) => {
    const names = portNames(config.ports);
    if (new Set(names).size !== names.length)
      ctx.addIssue({ code: 'custom', path: ['ports'], message: 'port names repeat' });
    config.ports.forEach((port, index) => {
      const addresses = port.controllers.map((controller) => controller.address);
      if (new Set(addresses).size !== addresses.length) {
        ctx.addIssue({ code: 'custom', path: ['ports', index], message: 'a Modbus address repeats on this port' });
      }
    });
  });

export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
export type PortConfig = GatewayConfig['ports'][number];
export type TcpPortConfig = z.output<typeof tcpPortConfig>;
export type SerialPortConfig = z.output<typeof serialPortConfig>;

export function isTcpPort(port: PortConfig): port is TcpPortConfig {
  return 'host' in port;
}

/** The name of each port, in order: its configured name or `port{n}`. */
export function portNames(ports: readonly { name?: string | undefined }[]): string[] {
  return ports.map((port, index) => port.name ?? `port${index + 1}`);
}

export function parseGatewayConfig(input: unknown): GatewayConfig {
  const result = gatewayConfigSchema.safeParse(input);
  if (!result.success) throw new Error(`invalid gateway configuration:\n${z.prettifyError(result.error)}`);
  return result.data;
}

/**
 * Configuration from `GATEWAY_CONFIG` (path to a JSON file) overlaid with the environment:
 * MODEM_ID, MODEM_SECRET, MQTT_URL, DATA_DIR, MODEM_MODEL, MODEM_FIRMWARE, MODEM_IMEI, MODEM_ICCID, MODEM_IMSI,
 * GPS=lat,lon;
 * MODBUS_TCP=host:port or MODBUS_SERIAL=/dev/ttyS1 (with MODBUS_BAUD_RATE), and MODBUS_ADDRESS=1[,2…]
 * replace the file's ports with one port.
 */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const input: Record<string, unknown> = env.GATEWAY_CONFIG
    ? (JSON.parse(readFileSync(env.GATEWAY_CONFIG, 'utf8')) as Record<string, unknown>)
    : {};
  const overlay: [string, string | undefined][] = [
    ['modemId', env.MODEM_ID],
    ['secret', env.MODEM_SECRET],
    ['brokerUrl', env.MQTT_URL],
    ['dataDir', env.DATA_DIR],
    ['model', env.MODEM_MODEL],
    ['firmware', env.MODEM_FIRMWARE],
    ['imei', env.MODEM_IMEI],
    ['iccid', env.MODEM_ICCID],
    ['imsi', env.MODEM_IMSI],
  ];
  for (const [key, value] of overlay) if (value) input[key] = value;
  if (env.GPS) {
    const [lat, lon] = env.GPS.split(',').map(Number);
    input.gps = { lat, lon };
  }
  const controllers = (env.MODBUS_ADDRESS ?? '1').split(',').map((address) => ({ address: Number(address.trim()) }));
  if (env.MODBUS_TCP) {
    const [host, port] = splitHostPort(env.MODBUS_TCP);
    input.ports = [{ name: 'port1', host, port, controllers }];
  } else if (env.MODBUS_SERIAL) {
    const baudRate = env.MODBUS_BAUD_RATE ? Number(env.MODBUS_BAUD_RATE) : undefined;
    input.ports = [{ name: 'port1', device: env.MODBUS_SERIAL, baudRate, controllers }];
  }
  return parseGatewayConfig(input);
}

function splitHostPort(value: string): [string, number] {
  const colon = value.lastIndexOf(':');
  if (colon <= 0) return [value, 502];
  return [value.slice(0, colon), Number(value.slice(colon + 1))];
}
