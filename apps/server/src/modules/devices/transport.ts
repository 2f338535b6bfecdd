// How the server exchanges MQTT messages with cloud modules, whatever the broker: the embedded Aedes
// broker by default, an external one later. Ingestion and commands only see this interface.
import type { ModemChannel, ModemDownChannel } from '@genset/protocol';

/**
 * Takes one message of a module. A returned promise asks the transport to take nothing more from that module
 * until it settles (backpressure: the module's messages then wait in its own outbox, not in server memory).
 */
export type ModemMessageHandler = (modemKey: string, channel: ModemChannel, payload: Buffer) => void | Promise<void>;

export interface DeviceTransport {
  /** Port the embedded broker listens on (undefined with an external broker). */
  readonly port: number | undefined;
  onMessage(handler: ModemMessageHandler): void;
  publish(
    modemKey: string,
    channel: ModemDownChannel,
    payload: string,
    options?: { retain?: boolean; qos?: 0 | 1 },
  ): Promise<void>;
  /** Modems connected right now (embedded broker only). */
  connected(modemKey: string): boolean;
  /** How many modules are connected now, where the transport knows (the embedded broker). */
  connectedCount?(): number;
  /** Whether modules can reach the server now: the embedded broker listens, the external one is connected. */
  isUp?(): boolean;
  close(): Promise<void>;
}
