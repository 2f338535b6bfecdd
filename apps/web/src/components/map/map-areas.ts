// A large fleet's map by area: each area a disc whose rim is shared out among its sets' states (their colours,
// in the legend's order), with how many sets it holds in the middle and a red ring when any of them alarms. Its
// tooltip counts the sets by state; a click zooms to where its sets are.
import L from 'leaflet';
import type { TFunction } from 'i18next';
import type { SetState } from '@genset/protocol';
import { formatNumber, formatTick } from '../format.ts';
import { STATE_ORDER, STATUS_HEX } from '../set-status.ts';

export interface MapArea {
  key: string;
  lat: number;
  lon: number;
  /** South-west and north-east corners of the box its sets are in. */
  bounds: [[number, number], [number, number]];
  sets: number;
  states: Record<SetState, number>;
  /** Sets with an active alarm. */
  alarm: number;
  /** A further line (output now …). */
  detail?: string;
}

/** "Area around 39.90, 116.41". */
export function areaTitle(a: MapArea, t: TFunction): string {
  return t('gensets.map.areaAt', { place: `${formatNumber(a.lat, 2)}, ${formatNumber(a.lon, 2)}` });
}

/** "Sets: 1,204 · Running 300 · Standby 204 …", each state with sets. */
export function areaCounts(a: MapArea, t: TFunction): string {
  const parts = [t('gensets.map.areaSets', { n: formatNumber(a.sets, 0) })];
  for (const s of STATE_ORDER)
    if (a.states[s] > 0) parts.push(`${t(`gensets.status.${s}`)} ${formatNumber(a.states[s], 0)}`);
  if (a.alarm > 0) parts.push(t('gensets.map.withAlarms', { n: formatNumber(a.alarm, 0) }));
  if (a.detail) parts.push(a.detail);
  return parts.join(' · ');
}

/** The rim's colours: each state's share of the area's sets, in the legend's order. */
export function areaGradient(a: MapArea): string {
  const stops: string[] = [];
  let at = 0;
  for (const s of STATE_ORDER) {
    if (a.states[s] === 0) continue;
    const to = at + (a.states[s] / a.sets) * 100;
    stops.push(`${STATUS_HEX[s]} ${at.toFixed(2)}% ${to.toFixed(2)}%`);
    at = to;
  }
  return `conic-gradient(${stops.join(', ')})`;
}

/** The areas as markers on `group`; a click on one zooms `map` to its sets. */
export function drawAreas(map: L.Map, group: L.LayerGroup, areas: readonly MapArea[], t: TFunction) {
  for (const a of areas) {
    const size = Math.round(32 + 8 * Math.log10(Math.max(1, a.sets)));
    const disc = document.createElement('div');
    disc.className = `fleet-map-area${a.alarm > 0 ? ' fleet-map-ring' : ''}`;
    disc.style.width = disc.style.height = `${size}px`;
    disc.style.background = areaGradient(a);
    disc.dataset.testid = 'map-area';
    const count = document.createElement('span');
    count.textContent = formatTick(a.sets);
    disc.append(count);
    const marker = L.marker([a.lat, a.lon], {
      icon: L.divIcon({ html: disc, className: 'fleet-map-area-icon', iconSize: [size, size] }),
      title: areaTitle(a, t),
      alt: areaTitle(a, t),
    });
    const tip = document.createElement('div');
    const title = document.createElement('strong');
    title.textContent = areaTitle(a, t);
    tip.append(title, document.createElement('br'), areaCounts(a, t));
    marker.bindTooltip(tip, { direction: 'top', offset: [0, -size / 2] });
    marker.on('click', () => map.fitBounds(L.latLngBounds(a.bounds), { padding: [24, 24], maxZoom: 12 }));
    marker.addTo(group);
  }
}
