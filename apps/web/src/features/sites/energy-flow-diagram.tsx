// The station's energy flow: grid, PV, battery and load around the station's bus, each line drawn with
// moving dashes in the direction power flows and the node's power in kW with what it does in words
// (importing, charging …), so direction never rests on colour or motion alone.
import type { SiteOverview } from '@genset/protocol';
import { useTranslation } from 'react-i18next';
import { formatKw, formatSoc } from './site-format.ts';
import { FLOW_NODES, flowDirection, flowState, type FlowNode } from './energy-flow.ts';

const CENTRE = { x: 200, y: 160 };
const POSITION: Record<FlowNode, { x: number; y: number }> = {
  grid: { x: 70, y: 70 },
  pv: { x: 330, y: 70 },
  battery: { x: 70, y: 250 },
  load: { x: 330, y: 250 },
};
const NODE_R = 30;
const HUB_R = 22;
const COLOUR: Record<FlowNode, string> = { grid: '#1677ff', pv: '#d48806', battery: '#08979c', load: '#531dab' };

/** The line between a node and the bus, drawn in the direction power flows (so the dashes move that way). */
function linePath(node: FlowNode, towardsHub: boolean): string {
  const p = POSITION[node];
  const dx = CENTRE.x - p.x;
  const dy = CENTRE.y - p.y;
  const length = Math.hypot(dx, dy);
  const ux = dx / length;
  const uy = dy / length;
  const a = { x: p.x + ux * (NODE_R + 4), y: p.y + uy * (NODE_R + 4) };
  const b = { x: CENTRE.x - ux * (HUB_R + 4), y: CENTRE.y - uy * (HUB_R + 4) };
  const [from, to] = towardsHub ? [a, b] : [b, a];
  return `M${from.x.toFixed(1)},${from.y.toFixed(1)} L${to.x.toFixed(1)},${to.y.toFixed(1)}`;
}

function NodeGlyph({ node, soc }: { node: FlowNode; soc: number | null }) {
  const { x, y } = POSITION[node];
  const colour = COLOUR[node];
  switch (node) {
    case 'grid':
      return (
        <path
          d={`M${x - 10},${y + 14} L${x},${y - 14} L${x + 10},${y + 14} M${x - 13},${y - 6} H${x + 13} M${x - 7},${y + 4} H${x + 7}`}
          stroke={colour}
          strokeWidth={2.5}
          fill="none"
          strokeLinejoin="round"
        />
      );
    case 'pv':
      return (
        <g stroke={colour} strokeWidth={2} fill="none">
          <rect x={x - 14} y={y - 10} width={28} height={20} rx={2} />
          <path d={`M${x - 14},${y} H${x + 14} M${x - 5},${y - 10} V${y + 10} M${x + 5},${y - 10} V${y + 10}`} />
        </g>
      );
    case 'battery': {
      const share = soc === null ? 0 : Math.max(0, Math.min(100, soc)) / 100;
      return (
        <g>
          <rect x={x - 9} y={y - 16} width={18} height={30} rx={3} stroke={colour} strokeWidth={2} fill="none" />
          <rect x={x - 4} y={y - 20} width={8} height={4} fill={colour} />
          <rect x={x - 6} y={y + 11 - 24 * share} width={12} height={24 * share} fill={colour} opacity={0.7} />
        </g>
      );
    }
    case 'load':
      return (
        <path
          d={`M${x - 14},${y - 1} L${x},${y - 14} L${x + 14},${y - 1} M${x - 10},${y - 4} V${y + 13} H${x + 10} V${y - 4}`}
          stroke={colour}
          strokeWidth={2.5}
          fill="none"
          strokeLinejoin="round"
        />
      );
  }
}

const KW_OF: Record<FlowNode, (o: SiteOverview) => number | null> = {
  grid: (o) => o.gridKw,
  pv: (o) => o.pvKw,
  battery: (o) => o.batteryKw,
  load: (o) => o.loadKw,
};

export function EnergyFlowDiagram({ overview }: { overview: SiteOverview }) {
  const { t } = useTranslation();
  const summary = FLOW_NODES.map((node) => {
    const kw = KW_OF[node](overview);
    const state = t(`ems.flow.states.${flowState(node, flowDirection(node, overview))}`);
    return `${t(`ems.flow.nodes.${node}`)}: ${formatKw(kw === null ? null : Math.abs(kw))} (${state})`;
  }).join('; ');
  return (
    <svg
      viewBox="0 0 400 320"
      className="ems-flow"
      role="img"
      aria-label={`${t('ems.flow.title')}: ${summary}`}
      data-testid="energy-flow"
    >
      {FLOW_NODES.map((node) => {
        const direction = flowDirection(node, overview);
        const moving = direction === 'in' || direction === 'out';
        const d = linePath(node, direction !== 'out');
        return (
          <g key={node} className={`ems-flow-line ems-flow-${direction}`} data-testid={`flow-line-${node}`}>
            <path d={d} className="ems-flow-track" />
            {moving ? <path d={d} className="ems-flow-dash" style={{ stroke: COLOUR[node] }} /> : null}
          </g>
        );
      })}
      <circle cx={CENTRE.x} cy={CENTRE.y} r={HUB_R} className="ems-flow-hub" />
      <text x={CENTRE.x} y={CENTRE.y + 4} textAnchor="middle" className="ems-flow-hub-text">
        {t('ems.flow.bus')}
      </text>
      {FLOW_NODES.map((node) => {
        const { x, y } = POSITION[node];
        const kw = KW_OF[node](overview);
        const direction = flowDirection(node, overview);
        return (
          <g key={node} data-testid={`flow-node-${node}`} data-direction={direction}>
            <text x={x} y={y - NODE_R - 8} textAnchor="middle" className="ems-flow-name">
              {t(`ems.flow.nodes.${node}`)}
            </text>
            <circle cx={x} cy={y} r={NODE_R} className="ems-flow-node" style={{ stroke: COLOUR[node] }} />
            <NodeGlyph node={node} soc={overview.soc} />
            <text
              x={x}
              y={y + NODE_R + 20}
              textAnchor="middle"
              className="ems-flow-value"
              data-testid={`flow-${node}-kw`}
              data-kw={kw ?? ''}
            >
              {formatKw(kw === null ? null : Math.abs(kw))}
            </text>
            <text x={x} y={y + NODE_R + 37} textAnchor="middle" className="ems-flow-state">
              {t(`ems.flow.states.${flowState(node, direction)}`)}
              {node === 'battery' && overview.soc !== null ? ` · ${formatSoc(overview.soc)}` : null}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
