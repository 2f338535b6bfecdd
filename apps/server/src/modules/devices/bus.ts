// The realtime bus: what ingestion and commands announce, and what WebSocket connections listen to.
// In-process by default; the same interface can be carried by Redis pub/sub across instances.
import { EventEmitter } from 'node:events';
import type { OtaJob } from '@genset/protocol';

export interface MonitorMessage {
  gensetId: number;
  token: string;
  status: number;
  alarmnum: number;
  ts: number;
  values: Record<string, number | null>;
}

export interface AlarmListEntry {
  id: number;
  code: string;
  level: string;
  title: string;
  start: number;
  end: number | null;
}

export interface AlarmMessage {
  gensetId: number;
  token: string;
  alarmnum: number;
  /** Open alarms with titles in every language, so each socket can pick its own. */
  list: (Omit<AlarmListEntry, 'title'> & { title: Record<string, string> })[];
}

/** A module connected (hello or data) or went away. */
export interface ModemMessage {
  modemId: number;
  online: boolean;
}

/** Sets were added, edited or deleted: every instance's set directory is stale. */
export interface SetsChangedMessage {
  /** The instance that made the change (it has already taken it into account). */
  origin: string;
}

/** The sets an instance's pages watch now (all of them), so every instance plans module rates alike. */
export interface WatchMessage {
  origin: string;
  gensetIds: number[];
}

/** New notices were made: each named person's unread count now (their consoles update the bell). */
export interface NoticeMessage {
  unread: Record<number, number>;
}

/** A set's firmware upgrade moved: the consoles of its company follow it live. */
export interface OtaBusMessage {
  companyId: number;
  /** The job as the upgrade calls list it (a server reason is still a message key). */
  job: OtaJob;
}

/** A station changed (its EMS status, its bindings): pages watching it are pushed its overview again. */
export interface SiteBusMessage {
  siteId: number;
  token: string;
}

/** What a company's roles reach changed (departments, people's departments, chosen sets): resolve it again. */
export interface ScopeChangedMessage {
  origin: string;
  /** The company; null: every company. */
  companyId: number | null;
}

/** A person's account or companies changed: every instance reads them again; `signOut`: their sessions ended. */
export interface UserBusMessage {
  userId: number;
  signOut: boolean;
}

export interface BusEvents {
  monitor: MonitorMessage;
  alarm: AlarmMessage;
  modem: ModemMessage;
  sets: SetsChangedMessage;
  watch: WatchMessage;
  notice: NoticeMessage;
  ota: OtaBusMessage;
  site: SiteBusMessage;
  user: UserBusMessage;
  scope: ScopeChangedMessage;
}

export interface RealtimeBus {
  publish<K extends keyof BusEvents>(channel: K, message: BusEvents[K]): void;
  subscribe<K extends keyof BusEvents>(channel: K, handler: (message: BusEvents[K]) => void): () => void;
  close(): Promise<void>;
}

export function createLocalBus(): RealtimeBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(channel, message) {
      emitter.emit(channel, message);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler as (m: unknown) => void);
      return () => emitter.off(channel, handler as (m: unknown) => void);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
