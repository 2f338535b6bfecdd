// Which way power flows on each line of the station's diagram, from the signs of the contract: grid > 0
// imports, battery > 0 discharges, PV ≥ 0 generates, load ≥ 0 consumes. Below a tenth of a kW a line rests.
import type { SiteOverview } from '@genset/protocol';

export type FlowNode = 'grid' | 'pv' | 'battery' | 'load';
/** in: towards the station's bus; out: from it to the node; idle: no power; unknown: no reading. */
export type FlowDirection = 'in' | 'out' | 'idle' | 'unknown';

export const FLOW_NODES: readonly FlowNode[] = ['grid', 'pv', 'battery', 'load'];

const RESTING_KW = 0.1;

/** A node's power seen from the bus: > 0 feeds it. */
function feed(node: FlowNode, overview: Pick<SiteOverview, 'gridKw' | 'pvKw' | 'batteryKw' | 'loadKw'>) {
  switch (node) {
    case 'grid':
      return overview.gridKw;
    case 'pv':
      return overview.pvKw;
    case 'battery':
      return overview.batteryKw;
    case 'load':
      return overview.loadKw === null ? null : -overview.loadKw;
  }
}

export function flowDirection(
  node: FlowNode,
  overview: Pick<SiteOverview, 'gridKw' | 'pvKw' | 'batteryKw' | 'loadKw'>,
): FlowDirection {
  const kw = feed(node, overview);
  if (kw === null || !Number.isFinite(kw)) return 'unknown';
  if (Math.abs(kw) < RESTING_KW) return 'idle';
  return kw > 0 ? 'in' : 'out';
}

/** The word under a node's figure: what the node does now (a locale key under ems.flow.states). */
export function flowState(node: FlowNode, direction: FlowDirection): string {
  if (direction === 'unknown') return 'noReading';
  if (direction === 'idle') return 'idle';
  switch (node) {
    case 'grid':
      return direction === 'in' ? 'importing' : 'exporting';
    case 'pv':
      return direction === 'in' ? 'generating' : 'consuming';
    case 'battery':
      return direction === 'in' ? 'discharging' : 'charging';
    case 'load':
      return direction === 'out' ? 'consuming' : 'feeding';
  }
}
