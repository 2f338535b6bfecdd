// Starts several simulated controllers at once, each on its own port or all behind one port by unit id,
// as a demo site or a load test needs them.
import { startGensetSimulator, type RunningGensetSimulator } from './genset-simulator.ts';
import type { LayoutName } from './layouts.ts';
import { ModbusTcpHost } from './modbus-host.ts';

export interface GensetFleetOptions {
  count: number;
  /** Layouts handed out in turn: ['S', 'G'] gives S, G, S, G, … */
  layouts?: readonly LayoutName[];
  /** Port of the first controller; the next ones take the following ports. 0 takes free ports. */
  basePort?: number;
  /** All controllers on one port (basePort), unit ids 1…count. */
  sharedPort?: boolean;
  host?: string;
  /** Controller i gets seed + i, so each set wanders differently yet reproducibly. */
  seed?: number;
  timeScale?: number;
  realtime?: boolean;
}

export interface GensetFleet {
  simulators: RunningGensetSimulator[];
  close(): Promise<void>;
}

export async function startGensetFleet(options: GensetFleetOptions): Promise<GensetFleet> {
  const { count, layouts = ['S', 'G'], basePort = 0, sharedPort = false, host, seed = 1 } = options;
  if (!Number.isInteger(count) || count < 1 || (sharedPort && count > 247)) {
    throw new Error(`count must be 1…${sharedPort ? 247 : 'n'}; got ${count}`);
  }
  const sharedHost = sharedPort ? await ModbusTcpHost.listen({ port: basePort, host }) : undefined;
  const simulators: RunningGensetSimulator[] = [];
  try {
    for (let i = 0; i < count; i++) {
      simulators.push(
        await startGensetSimulator({
          id: String(i + 1),
          layout: layouts[i % layouts.length]!,
          unitId: sharedPort ? i + 1 : 1,
          modbusHost: sharedHost,
          port: basePort === 0 ? 0 : basePort + i,
          host,
          seed: seed + i,
          timeScale: options.timeScale,
          realtime: options.realtime,
          // Spread the sets over a few kilometres so a map shows them apart.
          position: { lat: 31.2304 + 0.02 * Math.floor(i / 5), lon: 121.4737 + 0.02 * (i % 5) },
          loadKw: 60 + ((i * 37) % 100),
        }),
      );
    }
  } catch (error) {
    await Promise.all(simulators.map((simulator) => simulator.close()));
    await sharedHost?.close();
    throw error;
  }
  return {
    simulators,
    async close() {
      await Promise.all(simulators.map((simulator) => simulator.close()));
      await sharedHost?.close();
    },
  };
}
