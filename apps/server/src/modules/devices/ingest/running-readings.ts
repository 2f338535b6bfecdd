// Readings that exist only while a set runs: engine speed and oil pressure, the generator's own voltages and
// frequency and its power factor. A stopped set reports 0 there, which is not a reading; the rollups average
// them over the samples of a running set (see rollups.ts). The bus and mains are not among them: they can be
// live while this set is at rest.
import type { ProtocolDocument } from '@genset/protocol';
import type { CompiledProtocol, ProtocolStore } from '../protocols.ts';

const PRESSURE = new Set(['kPa', 'bar', 'MPa', 'psi']);
const SPEED = new Set(['r/min', 'rpm', 'RPM']);

export function isRunningReading(item: ProtocolDocument['items'][number]): boolean {
  if (item.group === 'engine') return SPEED.has(item.unit) || PRESSURE.has(item.unit);
  if (item.group !== 'generator') return false;
  if (item.key === 'power_factor') return true;
  return item.key.startsWith('gen_') && (item.unit === 'V' || item.unit === 'Hz');
}

const NONE: ReadonlySet<string> = new Set();

/** The running-only item keys of a protocol, from the store's loaded versions (none while one is loading). */
export function runningReadings(protocols: Pick<ProtocolStore, 'peek'>): (protocolKey: string) => ReadonlySet<string> {
  const known = new WeakMap<CompiledProtocol, ReadonlySet<string>>();
  return (protocolKey) => {
    const compiled = protocols.peek(protocolKey);
    if (!compiled) return NONE;
    let keys = known.get(compiled);
    if (!keys) {
      keys = new Set(compiled.doc.items.filter(isRunningReading).map((item) => item.key));
      known.set(compiled, keys);
    }
    return keys;
  };
}
