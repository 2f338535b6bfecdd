// Realtime watchers as the console opens them: /ws, a `wshb` naming the watched set, then `monitor` pushes.
// Each push carries the set's latest device time (`data.ts`), which the benchmark's modules set to the
// publish time, so receipt time minus `data.ts` is the MQTT-to-WebSocket latency.
export interface Watchers {
  /** Starts collecting latencies of pushes about snapshots published from now on. */
  startPhase(): void;
  /** Latencies (ms) collected since `startPhase`. */
  take(): number[];
  pushes(): number;
  close(): void;
}

export async function openWatchers(baseUrl: string, utoken: string, setTokens: string[]): Promise<Watchers> {
  let since = Number.POSITIVE_INFINITY;
  let latencies: number[] = [];
  let pushes = 0;
  const sockets: WebSocket[] = [];
  for (const token of setTokens) {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error('websocket failed')), { once: true });
    });
    const watched = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no snapshot push for ${token}`)), 10_000);
      ws.addEventListener('message', (event) => {
        const now = Date.now();
        const m = JSON.parse(String(event.data)) as { method: string; token?: string; data?: { ts?: number } };
        if (m.method === 'error') reject(new Error(`watch refused: ${String(event.data)}`));
        if (m.method !== 'monitor' || m.token !== token) return;
        clearTimeout(timer);
        resolve();
        pushes++;
        const ts = m.data?.ts ?? 0;
        if (ts >= since) latencies.push(now - ts);
      });
    });
    ws.send(JSON.stringify({ method: 'wshb', token, utoken, language: 'en-US' }));
    await watched;
    sockets.push(ws);
  }
  // The console repeats its heartbeat every 120 s; the server closes a socket after 300 s without one.
  const heartbeat = setInterval(() => {
    for (const [i, ws] of sockets.entries())
      if (ws.readyState === WebSocket.OPEN)
        ws.send(JSON.stringify({ method: 'wshb', token: setTokens[i], utoken, language: 'en-US' }));
  }, 60_000);
  return {
    startPhase() {
      since = Date.now();
      latencies = [];
    },
    take() {
      since = Number.POSITIVE_INFINITY;
      return latencies;
    },
    pushes: () => pushes,
    close() {
      clearInterval(heartbeat);
      for (const ws of sockets) ws.close();
    },
  };
}
