// What the server cannot reach right now (its database, the MQTT broker, Redis), as the readiness probe finds
// it (plugins/health.ts checks every few seconds). The realtime channel tells every open console when this
// changes, so that a page does not go on showing frozen values as if they were live.
export type ServicePart = 'database' | 'broker' | 'redis';

export interface ServiceHealth {
  /** The parts down now, in a fixed order; empty when everything answers. */
  down(): ServicePart[];
  /** Records the parts down now; listeners hear of a change only. */
  set(down: readonly ServicePart[]): void;
  subscribe(listener: (down: ServicePart[]) => void): () => void;
}

const ORDER: ServicePart[] = ['database', 'broker', 'redis'];

export function createServiceHealth(): ServiceHealth {
  let current: ServicePart[] = [];
  const listeners = new Set<(down: ServicePart[]) => void>();
  return {
    down: () => current,
    set(down) {
      const next = ORDER.filter((part) => down.includes(part));
      if (next.join() === current.join()) return;
      current = next;
      for (const listener of listeners) listener(current);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
