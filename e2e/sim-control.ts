// The demo fleet's simulated controllers, driven through their control API (started by the global setup):
// change the site load, inject and clear faults, switch the mode, as a technician on site would.
import { expect } from '@playwright/test';

function controlUrl(): string {
  const url = process.env.E2E_SIM_CONTROL;
  if (!url) throw new Error('E2E_SIM_CONTROL is not set');
  return url;
}

async function send(method: 'POST' | 'DELETE', path: string, body?: object): Promise<void> {
  const response = await fetch(`${controlUrl()}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** A demo set's simulated controller, by its module id (DEMO-0001 …). */
export function simulator(modemKey: string) {
  const base = `/simulators/${encodeURIComponent(modemKey)}`;
  return {
    setLoad: (kw: number) => send('POST', `${base}/load`, { kw }),
    injectFault: (code: string) => send('POST', `${base}/faults`, { code }),
    clearFault: (code: string) => send('DELETE', `${base}/faults/${encodeURIComponent(code)}`),
    setMode: (mode: 'stop' | 'manual' | 'auto' | 'test') => send('POST', `${base}/mode`, { mode }),
    press: (command: string) => send('POST', `${base}/commands`, { command }),
    async state(): Promise<Record<string, unknown>> {
      const response = await fetch(`${controlUrl()}${base}`);
      return (await response.json()) as Record<string, unknown>;
    },
  };
}
