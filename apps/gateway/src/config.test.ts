// Configuration from the environment and from a file, and the mistakes it refuses.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig, parseGatewayConfig } from './config.ts';

describe('gateway configuration', () => {
  it('reads a one-port module from the environment', () => {
    const config = loadGatewayConfig({
      MODEM_ID: 'GW-0001',
      MODEM_SECRET: 's3cret',
      MQTT_URL: 'mqtt://broker:1883',
      MODBUS_TCP: '10.0.0.5:5020',
      MODBUS_ADDRESS: '1, 2',
      DATA_DIR: '/var/lib/gateway',
    });
    expect(config).toMatchObject({
      modemId: 'GW-0001',
      secret: 's3cret',
      brokerUrl: 'mqtt://broker:1883',
      dataDir: '/var/lib/gateway',
      ports: [{ name: 'port1', host: '10.0.0.5', port: 5020, controllers: [{ address: 1 }, { address: 2 }] }],
      outboxMaxMessages: 500_000,
    });
  });

  it('reads the SIM card’s IMSI when the modem gives it, and reports none otherwise', () => {
    const base = { MODEM_ID: 'GW-0003', MODEM_SECRET: 's3cret', MODEM_ICCID: '89860000000000000003' };
    expect(loadGatewayConfig(base).imsi).toBe('');
    expect(loadGatewayConfig({ ...base, MODEM_IMSI: '460001234567890' })).toMatchObject({
      iccid: '89860000000000000003',
      imsi: '460001234567890',
    });
  });

  it('reads a file and lets the environment override it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-config-'));
    try {
      const file = join(dir, 'gateway.json');
      await writeFile(
        file,
        JSON.stringify({
          modemId: 'GW-0002',
          secret: 'from-file',
          ports: [
            { name: 'rs485', device: '/dev/ttyS1', baudRate: 19200, parity: 'even', controllers: [{ address: 3 }] },
          ],
        }),
      );
      const config = loadGatewayConfig({ GATEWAY_CONFIG: file, MODEM_SECRET: 'from-env' });
      expect(config.secret).toBe('from-env');
      expect(config.ports[0]).toEqual({
        name: 'rs485',
        device: '/dev/ttyS1',
        baudRate: 19200,
        parity: 'even',
        dataBits: 8,
        stopBits: 1,
        controllers: [{ address: 3 }],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses ids that would break topics, repeated ports and repeated addresses', () => {
    const base = { secret: 'x', ports: [] };
    expect(() => parseGatewayConfig({ ...base, modemId: 'a/b' })).toThrow(/invalid gateway configuration/);
    const tcp = { host: 'h', controllers: [{ address: 1 }] };
    expect(() => parseGatewayConfig({ ...base, modemId: 'm', ports: [tcp, { ...tcp, name: 'port1' }] })).toThrow(
      /port names repeat/,
    );
    expect(() =>
      parseGatewayConfig({
        ...base,
        modemId: 'm',
        ports: [{ host: 'h', controllers: [{ address: 1 }, { address: 1 }] }],
      }),
    ).toThrow(/address repeats/);
  });
});
