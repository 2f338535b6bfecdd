// A realtime client as the console opens it: /ws, a `wshb` naming the watched set, pushes collected.
export interface WsClient {
  messages: any[];
  heartbeat(token: string, tokens?: string[], group?: string): void;
  /** The first message matching, among those from index `since` on (default: all so far and to come). */
  waitFor(predicate: (m: any) => boolean, timeoutMs?: number, since?: number): Promise<any>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export async function connectWs(baseUrl: string, utoken: string, language = 'en-US'): Promise<WsClient> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`);
  const messages: any[] = [];
  const waiters: { predicate: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  ws.addEventListener('message', (event) => {
    const m = JSON.parse(String(event.data));
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.predicate(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener('close', (e) => resolve({ code: e.code, reason: e.reason })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error('websocket failed')), { once: true });
  });
  return {
    messages,
    heartbeat(token, tokens, group) {
      ws.send(
        JSON.stringify({
          method: 'wshb',
          token,
          utoken,
          language,
          ...(tokens ? { tokens } : {}),
          ...(group ? { group } : {}),
        }),
      );
    },
    waitFor(predicate, timeoutMs = 5000, since = 0) {
      const seen = messages.slice(since).find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    closed,
    close() {
      ws.close();
    },
  };
}
