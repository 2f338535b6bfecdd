// Sets on an OpenStreetMap map (Leaflet), one dot per set in its state's colour (a red ring for active alarms)
// with a legend. When the tiles cannot be loaded (no network, blocked host) the same sets are shown as a list
// instead; the user can also switch to the list by hand.
import { useEffect, useRef, useState } from 'react';
import { List, Segmented, Space, Typography } from 'antd';
import { EnvironmentOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { SetState } from '@genset/protocol';
import { STATE_ORDER, STATUS_HEX } from '../set-status.ts';
import { formatNumber } from '../format.ts';
import { areaCounts, areaGradient, areaTitle, drawAreas, type MapArea } from './map-areas.ts';
import './fleet-map.css';

export type { MapArea };

export const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
/** Without a single tile after this long the map counts as unavailable. */
const TILE_WAIT_MS = 12_000;

export interface MapPoint {
  key: string;
  name: string;
  /** The set's state; its active alarms are shown apart (a red ring and a count). */
  status: SetState;
  alarms?: number;
  lat: number;
  lon: number;
  /** A second line in the tooltip and the list (power now, place …). */
  detail?: string;
  /** Where a click on the dot or the list row leads. */
  href?: string;
}

type View = 'map' | 'list';

export function FleetMap({
  points,
  areas = [],
  height = 320,
  tileUrl = OSM_TILES,
  testId = 'fleet-map',
}: {
  points: MapPoint[];
  /** A large fleet's sets by area, drawn instead of points. */
  areas?: MapArea[];
  height?: number;
  tileUrl?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const [view, setView] = useState<View>('map');
  const [tilesFailed, setTilesFailed] = useState(false);
  const showList = view === 'list' || tilesFailed;

  // The map itself, once.
  useEffect(() => {
    if (!box.current || map.current) return;
    const instance = L.map(box.current, { zoomControl: false, attributionControl: true, worldCopyJump: true });
    L.control
      .zoom({ position: 'topleft', zoomInTitle: t('gensets.map.zoomIn'), zoomOutTitle: t('gensets.map.zoomOut') })
      .addTo(instance);
    instance.attributionControl.setPrefix(false);
    let loaded = false;
    const tiles = L.tileLayer(tileUrl, { maxZoom: 18, attribution: OSM_ATTRIBUTION, crossOrigin: true });
    tiles.on('tileload', () => {
      loaded = true;
    });
    tiles.on('tileerror', () => {
      if (!loaded) setTilesFailed(true);
    });
    tiles.addTo(instance);
    const timer = setTimeout(() => {
      if (!loaded) setTilesFailed(true);
    }, TILE_WAIT_MS);
    instance.setView([20, 0], 2);
    layer.current = L.layerGroup().addTo(instance);
    map.current = instance;
    return () => {
      clearTimeout(timer);
      instance.remove();
      map.current = null;
      layer.current = null;
    };
  }, [t, tileUrl]);

  // Dots for the points (or discs for the areas); the view fits them.
  useEffect(() => {
    const instance = map.current;
    const group = layer.current;
    if (!instance || !group) return;
    group.clearLayers();
    if (areas.length) {
      drawAreas(instance, group, areas, t);
      instance.fitBounds(L.latLngBounds(areas.flatMap((a) => a.bounds)), { padding: [24, 24], maxZoom: 12 });
      return;
    }
    for (const p of points) {
      const alarmed = (p.alarms ?? 0) > 0;
      const dot = L.circleMarker([p.lat, p.lon], {
        radius: 8,
        color: alarmed ? STATUS_HEX.alarm : '#fff',
        weight: alarmed ? 3 : 2,
        fillColor: STATUS_HEX[p.status],
        fillOpacity: 1,
      });
      const tip = document.createElement('div');
      const title = document.createElement('strong');
      title.textContent = p.name;
      tip.append(title, document.createElement('br'), `${t(`gensets.status.${p.status}`)}`);
      if (alarmed) tip.append(` · ${t('gensets.status.alarmCount', { count: p.alarms })}`);
      if (p.detail) tip.append(` · ${p.detail}`);
      dot.bindTooltip(tip, { direction: 'top', offset: [0, -6] });
      if (p.href) dot.on('click', () => void navigate(p.href!));
      dot.addTo(group);
    }
    if (points.length === 1) instance.setView([points[0]!.lat, points[0]!.lon], 11);
    else if (points.length > 1)
      instance.fitBounds(L.latLngBounds(points.map((p) => [p.lat, p.lon] as [number, number])), {
        padding: [24, 24],
        maxZoom: 12,
      });
  }, [points, areas, t, navigate]);

  // The box may have been hidden (list view) or resized by the layout.
  useEffect(() => {
    if (!showList) map.current?.invalidateSize();
  }, [showList]);

  return (
    <div className="fleet-map" data-testid={testId} data-view={showList ? 'list' : 'map'}>
      <div className="fleet-map-bar">
        <Space size={[12, 4]} wrap className="fleet-map-legend" aria-label={t('gensets.map.legend')}>
          {STATE_ORDER.map((key) => (
            <span key={key} className="fleet-map-legend-item">
              <span className="fleet-map-dot" style={{ background: STATUS_HEX[key] }} />
              {t(`gensets.status.${key}`)}
            </span>
          ))}
          <span className="fleet-map-legend-item">
            <span className="fleet-map-dot fleet-map-ring" />
            {t('gensets.status.alarm')}
          </span>
        </Space>
        {!tilesFailed ? (
          <Segmented<View>
            size="small"
            value={view}
            onChange={setView}
            options={[
              { value: 'map', icon: <EnvironmentOutlined />, label: t('gensets.map.showMap') },
              { value: 'list', icon: <UnorderedListOutlined />, label: t('gensets.map.showList') },
            ]}
          />
        ) : null}
      </div>
      {areas.length ? (
        <Typography.Paragraph type="secondary" className="fleet-map-areas-note" data-testid="map-by-area">
          {t('gensets.map.byArea', {
            total: formatNumber(
              areas.reduce((n, a) => n + a.sets, 0),
              0,
            ),
          })}
        </Typography.Paragraph>
      ) : null}
      <div
        ref={box}
        className="fleet-map-canvas"
        style={{ height, display: showList ? 'none' : undefined }}
        role="region"
        aria-label={t('gensets.map.region')}
      />
      {showList ? (
        <div className="fleet-map-list" style={{ maxHeight: height, overflowY: 'auto' }}>
          {tilesFailed ? (
            <Typography.Paragraph type="secondary" className="fleet-map-notice" data-testid="map-unavailable">
              {t('gensets.map.unavailable')}
            </Typography.Paragraph>
          ) : null}
          {areas.length ? (
            <List
              size="small"
              dataSource={areas}
              renderItem={(a) => (
                <List.Item key={a.key} data-testid="map-list-area">
                  <span
                    className={`fleet-map-dot${a.alarm > 0 ? ' fleet-map-ring' : ''}`}
                    style={{ background: areaGradient(a) }}
                  />
                  <div className="fleet-map-list-main">
                    <span>{areaTitle(a, t)}</span>
                    <Typography.Text type="secondary" className="fleet-map-list-sub">
                      {areaCounts(a, t)}
                    </Typography.Text>
                  </div>
                </List.Item>
              )}
            />
          ) : (
            <List
              size="small"
              dataSource={points}
              locale={{ emptyText: t('gensets.map.noPositions') }}
              renderItem={(p) => (
                <List.Item key={p.key} data-testid="map-list-item">
                  <span
                    className={`fleet-map-dot${(p.alarms ?? 0) > 0 ? ' fleet-map-ring' : ''}`}
                    style={{ background: STATUS_HEX[p.status] }}
                  />
                  <div className="fleet-map-list-main">
                    {p.href ? <Link to={p.href}>{p.name}</Link> : <span>{p.name}</span>}
                    <Typography.Text type="secondary" className="fleet-map-list-sub">
                      <span data-state={p.status}>{t(`gensets.status.${p.status}`)}</span>
                      {(p.alarms ?? 0) > 0 ? ` · ${t('gensets.status.alarmCount', { count: p.alarms })}` : ''}
                      {p.detail ? ` · ${p.detail}` : ''}
                    </Typography.Text>
                  </div>
                  <Typography.Text type="secondary" className="fleet-map-coords">
                    {p.lat.toFixed(4)}, {p.lon.toFixed(4)}
                  </Typography.Text>
                </List.Item>
              )}
            />
          )}
        </div>
      ) : null}
    </div>
  );
}
