// Summarises a V8 CPU profile (.cpuprofile, written by `node --cpu-prof`): where the process spent its
// time, by function (self time) and by area (package, server file, Node internals, GC, idle).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native or builtin)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const app = /\/(apps|packages)\/([^/]+)\/src\/(.*)$/.exec(url);
  if (app) return `${app[1]}/${app[2]}/${app[3]}`;
  if (url.startsWith('node:'))
    return url
      .replace(/^node:internal\//, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  return url;
}

/** `skipMs`: samples of the first milliseconds after the profile started (start-up) are left out. */
export function summariseProfile(
  file: string,
  skipMs = 0,
  top = 20,
): { total: number; byArea: string[][]; byFunction: string[][] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = 0;
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at / 1000 >= skipMs) self.set(id, (self.get(id) ?? 0) + delta);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of self) {
    const f = nodes.get(id)!.callFrame;
    const a = area(f.url, f.functionName);
    areas.set(a, (areas.get(a) ?? 0) + us);
    // Files compiled by tsx keep no useful line numbers; packages do.
    const line = f.url.includes('node_modules') ? `:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'} ${a}${line}`;
    fns.set(name, (fns.get(name) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => [k, `${((us / total) * 100).toFixed(1)} %`, `${(us / 1000).toFixed(0)} ms`]);
  return { total: total / 1000, byArea: rows(areas), byFunction: rows(fns) };
}
