// One WebSocket to /ws shared by every part of a page that shows live values (spec 4). Parts register what
// they watch; the connection sends one heartbeat naming all of it, at once, on every change and every 120 s,
// and hands the pushes for watched sets to its listener. When the socket closes it retries at once, then
// every 20 s, as long as some part asked for retries; it closes by itself a moment after the last part left.
import { MAX_WATCHED_TOKENS, parsePush, type HeartbeatMessage, type RealtimePush } from './messages.ts';

export const HEARTBEAT_MS = 120_000;
export const RETRY_MS = 20_000;
/** A part that leaves and another that comes (a tab change) keep the socket. */
export const IDLE_CLOSE_MS = 3_000;
/** The server closes with this code when the user token is refused; retrying cannot help. */
export const CLOSE_REFUSED = 4001;

/** idle: nothing watched; connecting: first attempt under way; open; offline: lost, maybe retrying. */
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'offline';

export interface Watch {
  /** The set this part watches closely (its module switches to the online rate). */
  token?: string;
  /** Further sets this part follows (a grid, a list). */
  tokens?: readonly string[];
  /** The group this part shows (its members, in `tokens`, then report at the online rate). */
  group?: string;
  /** Retry when the socket closes (the realtime, realdata and alarm tabs and the monitor pages do). */
  reconnect: boolean;
}

export interface ConnectionListener {
  state(state: ConnectionState): void;
  push(push: RealtimePush): void;
}

type TimerId = ReturnType<typeof setTimeout>;

export interface Timers {
  setTimeout(run: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
  setInterval(run: () => void, ms: number): TimerId;
  clearInterval(id: TimerId): void;
}

export interface ConnectionOptions {
  /** Address of /ws, read at each attempt. */
  url: () => string;
  /** The signed-in user's token, read at each heartbeat; without one nothing is opened. */
  utoken: () => string | undefined;
  language: () => string;
  listener: ConnectionListener;
  createSocket?: (url: string) => WebSocket;
  timers?: Timers;
  heartbeatMs?: number;
  retryMs?: number;
  idleCloseMs?: number;
}

const browserTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (id) => clearTimeout(id),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (id) => clearInterval(id),
};

export class RealtimeConnection {
  private readonly opts: Required<Omit<ConnectionOptions, 'createSocket'>> & Pick<ConnectionOptions, 'createSocket'>;
  private readonly watches = new Map<number, Watch>();
  private nextId = 1;
  private socket: WebSocket | null = null;
  private heartbeatTimer: TimerId | null = null;
  private retryTimer: TimerId | null = null;
  private idleTimer: TimerId | null = null;
  /** Closes since the server last spoke: the first retry is immediate, later ones wait. */
  private failures = 0;
  private refused = false;
  private lastHeartbeat = '';
  /** The sets the server was last told of on the open socket: it pushes these until told otherwise. */
  private told = new Set<string>();
  private current: ConnectionState = 'idle';

  constructor(options: ConnectionOptions) {
    this.opts = {
      timers: browserTimers,
      heartbeatMs: HEARTBEAT_MS,
      retryMs: RETRY_MS,
      idleCloseMs: IDLE_CLOSE_MS,
      ...options,
    };
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Registers what a part of the page watches; the returned function ends it. */
  watch(watch: Watch): () => void {
    const id = this.nextId++;
    this.watches.set(id, { ...watch, tokens: watch.tokens ? [...watch.tokens] : undefined });
    this.refused = false;
    this.changed();
    return () => {
      if (this.watches.delete(id)) this.changed();
    };
  }

  /** Every set some part watches, whatever the role. */
  watchedTokens(): Set<string> {
    const all = new Set<string>();
    for (const w of this.watches.values()) {
      if (w.token) all.add(w.token);
      for (const t of w.tokens ?? []) if (t) all.add(t);
    }
    return all;
  }

  /**
   * The sets the server still pushes: those named in the last heartbeat on the open socket. A part that leaves
   * and comes back before another heartbeat is sent (a layout re-registering its watch) is not sent a fresh
   * state, so what was received for these must be kept.
   */
  toldTokens(): Set<string> {
    return new Set(this.told);
  }

  /** The heartbeat for what is watched now: the latest close watch as `token`, everything else in `tokens`. */
  heartbeat(): HeartbeatMessage {
    let token = '';
    let group = '';
    for (const w of this.watches.values()) {
      if (w.token) token = w.token;
      if (w.group) group = w.group;
    }
    const others = [...this.watchedTokens()].filter((t) => t !== token).slice(0, MAX_WATCHED_TOKENS);
    const message: HeartbeatMessage = {
      method: 'wshb',
      token,
      utoken: this.opts.utoken() ?? '',
      language: this.opts.language(),
    };
    if (others.length > 0) message.tokens = others;
    if (group) message.group = group;
    return message;
  }

  /** Closes the socket and forgets every watch (sign-out, tests). */
  dispose(): void {
    this.watches.clear();
    this.stopTimers();
    this.closeSocket();
    this.setState('idle');
  }

  private changed(): void {
    const { timers } = this.opts;
    if (this.watches.size === 0) {
      if (this.retryTimer !== null) {
        timers.clearTimeout(this.retryTimer);
        this.retryTimer = null;
      }
      if (this.socket && this.idleTimer === null) {
        this.idleTimer = timers.setTimeout(() => {
          this.idleTimer = null;
          if (this.watches.size === 0) {
            this.closeSocket();
            this.setState('idle');
          }
        }, this.opts.idleCloseMs);
      } else if (!this.socket) {
        this.setState('idle');
      }
      return;
    }
    if (this.idleTimer !== null) {
      timers.clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (this.socket) {
      this.sendHeartbeat(false);
    } else if (this.retryTimer === null) {
      // A part that asks for retries may arrive while the others had given up: it starts at once.
      this.open();
    }
  }

  private wantsRetry(): boolean {
    for (const w of this.watches.values()) if (w.reconnect) return true;
    return false;
  }

  private open(): void {
    if (this.socket) return;
    if (this.refused || !this.opts.utoken()) {
      this.setState('offline');
      return;
    }
    let socket: WebSocket;
    try {
      socket = this.opts.createSocket ? this.opts.createSocket(this.opts.url()) : new WebSocket(this.opts.url());
    } catch {
      this.lost(null);
      return;
    }
    this.socket = socket;
    this.lastHeartbeat = '';
    this.told = new Set();
    if (this.current !== 'offline') this.setState('connecting');
    socket.addEventListener('open', () => {
      if (this.socket !== socket) return;
      this.setState('open');
      this.sendHeartbeat(true);
      this.heartbeatTimer = this.opts.timers.setInterval(() => this.sendHeartbeat(true), this.opts.heartbeatMs);
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      if (this.socket !== socket || typeof event.data !== 'string') return;
      const push = parsePush(event.data);
      if (!push) return;
      this.failures = 0;
      if (push.method === 'error') {
        this.opts.listener.push({ ...push, tokens: push.tokens.filter((t) => this.watchedTokens().has(t)) });
        return;
      }
      if (push.method === 'health' || push.method === 'notice' || push.method === 'ota') {
        this.opts.listener.push(push);
        return;
      }
      // Spec 4: a push matches only a set this page watches.
      if (this.watchedTokens().has(push.token)) this.opts.listener.push(push);
    });
    socket.addEventListener('close', (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.told = new Set();
      this.lost(event.code);
    });
  }

  private lost(code: number | null): void {
    const { timers } = this.opts;
    if (this.heartbeatTimer !== null) {
      timers.clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = null;
    }
    if (code === CLOSE_REFUSED) this.refused = true;
    if (this.watches.size === 0) {
      this.setState('idle');
      return;
    }
    this.setState('offline');
    if (this.refused || !this.wantsRetry() || this.retryTimer !== null) return;
    const delay = this.failures === 0 ? 0 : this.opts.retryMs;
    this.failures += 1;
    this.retryTimer = timers.setTimeout(() => {
      this.retryTimer = null;
      if (this.watches.size > 0 && this.wantsRetry()) this.open();
    }, delay);
  }

  private sendHeartbeat(always: boolean): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const message = this.heartbeat();
    const text = JSON.stringify(message);
    if (!always && text === this.lastHeartbeat) return;
    this.lastHeartbeat = text;
    this.told = new Set([message.token, ...(message.tokens ?? [])].filter(Boolean));
    socket.send(text);
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = null;
    this.told = new Set();
    if (this.heartbeatTimer !== null) {
      this.opts.timers.clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = null;
    }
    if (socket && socket.readyState !== WebSocket.CLOSED && socket.readyState !== WebSocket.CLOSING) socket.close();
  }

  private stopTimers(): void {
    const { timers } = this.opts;
    if (this.retryTimer !== null) timers.clearTimeout(this.retryTimer);
    if (this.idleTimer !== null) timers.clearTimeout(this.idleTimer);
    this.retryTimer = null;
    this.idleTimer = null;
  }

  private setState(state: ConnectionState): void {
    if (state === this.current) return;
    this.current = state;
    this.opts.listener.state(state);
  }
}
