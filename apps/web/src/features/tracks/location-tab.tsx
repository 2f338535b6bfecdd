// A set's location tab: where it is now and whether that is inside its electronic fence, the fence drawn on
// the map (a circle: click the centre and give the radius; a polygon: click its corners), and the track of a
// recent range played back at ×1 (a minute of track a second) or ×10 with a time slider.
import { useEffect, useMemo, useRef, useState } from 'react';
import { App as AntApp, Button, Card, Empty, Grid, InputNumber, Segmented, Slider, Space, Tag, Typography } from 'antd';
import { AimOutlined, EditOutlined, PauseOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { FenceShape, GeoPoint, TrackPoint } from '@genset/protocol';
import { formatDateTime, formatNumber, localUnit, NONE } from '../../components/format.ts';
import { OSM_TILES } from '../../components/map/fleet-map.tsx';
import { useFence, useSaveFence, useTrack } from './api.ts';

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
const RANGES = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;
type RangeKey = keyof typeof RANGES;
/** Track time per second of playback at ×1. */
const X1_MS_PER_S = 60_000;
const FRAME_MS = 100;

type Draft = { type: 'circle'; center: GeoPoint | null; radiusM: number } | { type: 'polygon'; points: GeoPoint[] };

/** Where the set was at `ts`, between the two fixes around it. */
export function positionAt(points: TrackPoint[], ts: number): [number, number] | null {
  if (!points.length) return null;
  if (ts <= points[0]![0]) return [points[0]![1], points[0]![2]];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1]!, points[i]!];
    if (ts <= b[0]) {
      const f = b[0] === a[0] ? 1 : (ts - a[0]) / (b[0] - a[0]);
      return [a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
    }
  }
  const last = points[points.length - 1]!;
  return [last[1], last[2]];
}

function draftToFence(draft: Draft): FenceShape | null {
  if (draft.type === 'circle')
    return draft.center ? { type: 'circle', center: draft.center, radiusM: draft.radiusM } : null;
  return draft.points.length ? { type: 'polygon', points: draft.points } : null;
}

function fenceLayer(fence: FenceShape, editing: boolean): L.Circle | L.Polygon {
  const style = { color: editing ? '#1677ff' : '#d4380d', weight: 2, dashArray: '6 4', fillOpacity: 0.06 };
  return fence.type === 'circle'
    ? L.circle([fence.center.lat, fence.center.lon], { ...style, radius: fence.radiusM })
    : L.polygon(
        fence.points.map((p) => [p.lat, p.lon] as [number, number]),
        style,
      );
}

export function LocationTab({ token }: { token: string }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const fence = useFence(token);
  const save = useSaveFence(token);
  const { message } = AntApp.useApp();
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const shapes = useRef<L.LayerGroup | null>(null);
  const trackLayer = useRef<L.LayerGroup | null>(null);
  const fitted = useRef(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [rangeKey, setRangeKey] = useState<RangeKey>('hour');
  const [range, setRange] = useState<{ start: number; end: number } | null>(null);
  const track = useTrack(token, range);
  const points = useMemo(() => track.data?.points ?? [], [track.data]);
  const [atState, setAt] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<1 | 10>(1);
  const data = fence.data;
  const first = points[0]?.[0] ?? 0;
  const last = points[points.length - 1]?.[0] ?? 0;
  /** The player's time on the track: its start until moved. */
  const at = atState ?? first;

  // The map, once.
  useEffect(() => {
    if (!box.current || map.current) return;
    const instance = L.map(box.current, { zoomControl: true, attributionControl: true });
    instance.attributionControl.setPrefix(false);
    L.tileLayer(OSM_TILES, { maxZoom: 18, attribution: OSM_ATTRIBUTION, crossOrigin: true }).addTo(instance);
    instance.setView([20, 0], 2);
    shapes.current = L.layerGroup().addTo(instance);
    trackLayer.current = L.layerGroup().addTo(instance);
    map.current = instance;
    return () => {
      instance.remove();
      map.current = null;
    };
  }, []);

  // Clicks draw the fence being edited.
  useEffect(() => {
    const instance = map.current;
    if (!instance || !draft) return;
    const onClick = (e: L.LeafletMouseEvent) => {
      const p = { lat: Number(e.latlng.lat.toFixed(6)), lon: Number(e.latlng.lng.toFixed(6)) };
      setDraft((d) =>
        d?.type === 'circle' ? { ...d, center: p } : d ? { type: 'polygon', points: [...d.points, p] } : d,
      );
    };
    instance.on('click', onClick);
    return () => {
      instance.off('click', onClick);
    };
  }, [draft]);

  // The fence (or the draft), the set's latest fix and its site.
  useEffect(() => {
    const instance = map.current;
    const group = shapes.current;
    if (!instance || !group || !data) return;
    group.clearLayers();
    const shown = draft ? draftToFence(draft) : data.fence;
    const drawn = shown ? fenceLayer(shown, Boolean(draft)).addTo(group) : null;
    if (draft?.type === 'polygon')
      for (const p of draft.points) L.circleMarker([p.lat, p.lon], { radius: 4, color: '#1677ff' }).addTo(group);
    const here = data.position ?? data.site;
    if (data.position)
      L.circleMarker([data.position.lat, data.position.lon], {
        radius: 8,
        color: '#fff',
        weight: 2,
        fillColor: data.state === 'outside' ? '#d4380d' : '#389e0d',
        fillOpacity: 1,
      })
        .bindTooltip(t('tracks.now'))
        .addTo(group);
    if (!fitted.current && here) {
      fitted.current = true;
      if (drawn) instance.fitBounds(drawn.getBounds(), { padding: [24, 24] });
      else instance.setView([here.lat, here.lon], 13);
    }
  }, [data, draft, t]);

  // The track, fitted into view once loaded.
  useEffect(() => {
    const group = trackLayer.current;
    if (!group) return;
    group.clearLayers();
    if (points.length < 1) return;
    const line = L.polyline(
      points.map((p) => [p[1], p[2]] as [number, number]),
      { color: '#1677ff', weight: 3 },
    ).addTo(group);
    map.current?.fitBounds(line.getBounds(), { padding: [24, 24], maxZoom: 15 });
  }, [points]);

  // The player's marker, where the set was at the player's time.
  useEffect(() => {
    const instance = map.current;
    const where = positionAt(points, at);
    if (!instance || !where) return;
    const marker = L.circleMarker(where, {
      radius: 7,
      color: '#fff',
      weight: 2,
      fillColor: '#722ed1',
      fillOpacity: 1,
    }).addTo(instance);
    return () => {
      marker.remove();
    };
  }, [points, at]);

  // Playback.
  useEffect(() => {
    if (!playing || points.length < 2) return;
    const end = points[points.length - 1]![0];
    const timer = setInterval(() => {
      setAt((now) => {
        const next0 = now ?? points[0]![0];
        const next = Math.min(end, next0 + (X1_MS_PER_S * speed * FRAME_MS) / 1000);
        if (next >= end) setPlaying(false);
        return next;
      });
    }, FRAME_MS);
    return () => clearInterval(timer);
  }, [playing, speed, points]);

  const load = () => {
    const end = Date.now();
    setAt(null);
    setPlaying(false);
    setRange({ start: end - RANGES[rangeKey], end });
  };

  const startEdit = () => {
    const f = data?.fence;
    if (f?.type === 'polygon') setDraft({ type: 'polygon', points: f.points });
    else
      setDraft({
        type: 'circle',
        center: f?.type === 'circle' ? f.center : null,
        radiusM: f?.type === 'circle' ? f.radiusM : 1000,
      });
  };

  const submit = (fenceToSave: FenceShape | null) =>
    save.mutate(fenceToSave, {
      onSuccess: () => {
        setDraft(null);
        void message.success(t(fenceToSave ? 'tracks.saved' : 'tracks.removed'));
      },
    });

  const state = data?.fence ? (data.state ?? 'unknown') : 'none';
  const stateColor = { inside: 'success', outside: 'error', unknown: 'default', none: 'default' }[state];
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="location-tab">
      <Card size="small">
        <Space size={[16, 8]} wrap>
          <span>
            {t('tracks.labelled', { label: t('tracks.fenceState') })}{' '}
            <Tag color={stateColor} data-testid="fence-state">
              {t(`tracks.state.${state}`)}
            </Tag>
          </span>
          <span>
            {t('tracks.labelled', { label: t('tracks.lastFix') })}{' '}
            {data?.position ? formatDateTime(data.position.ts) : NONE}
          </span>
          {data?.position?.speed != null && (
            <span>
              {t('tracks.labelled', { label: t('tracks.speed') })}{' '}
              {t('tracks.kmh', { value: Math.round(data.position.speed) })}
            </span>
          )}
          {data?.canManage && !draft && (
            <Button icon={<EditOutlined />} onClick={startEdit} data-testid="fence-edit">
              {t('tracks.editFence')}
            </Button>
          )}
        </Space>
        {draft && (
          <Space direction="vertical" size={8} style={{ width: '100%', marginTop: 12 }} data-testid="fence-editor">
            <Segmented<'circle' | 'polygon'>
              value={draft.type}
              onChange={(type) =>
                setDraft(type === 'circle' ? { type, center: null, radiusM: 1000 } : { type, points: [] })
              }
              options={[
                { value: 'circle', label: t('tracks.circle') },
                { value: 'polygon', label: t('tracks.polygon') },
              ]}
            />
            <Typography.Text type="secondary">
              {draft.type === 'circle' ? t('tracks.circleHint') : t('tracks.polygonHint')}
            </Typography.Text>
            <Space wrap>
              {draft.type === 'circle' ? (
                <InputNumber
                  aria-label={t('tracks.radius')}
                  addonBefore={t('tracks.radius')}
                  addonAfter={localUnit('m')}
                  value={draft.radiusM}
                  min={1}
                  onChange={(v) => setDraft({ ...draft, radiusM: Number(v ?? 0) })}
                />
              ) : (
                <Button
                  disabled={!draft.points.length}
                  onClick={() => setDraft({ type: 'polygon', points: draft.points.slice(0, -1) })}
                >
                  {t('tracks.undoCorner')}
                </Button>
              )}
              {draft.type === 'circle' && data?.position && (
                <Button
                  icon={<AimOutlined />}
                  onClick={() => setDraft({ ...draft, center: { lat: data.position!.lat, lon: data.position!.lon } })}
                >
                  {t('tracks.centreHere')}
                </Button>
              )}
              <Button
                type="primary"
                loading={save.isPending}
                disabled={!draftToFence(draft)}
                onClick={() => submit(draftToFence(draft))}
                data-testid="fence-save"
              >
                {t('tracks.save')}
              </Button>
              {data?.fence && (
                <Button danger onClick={() => submit(null)}>
                  {t('tracks.remove')}
                </Button>
              )}
              <Button onClick={() => setDraft(null)}>{t('tracks.cancel')}</Button>
            </Space>
          </Space>
        )}
      </Card>
      <div
        ref={box}
        style={{ height: screens.md ? 440 : 300, borderRadius: 8, overflow: 'hidden' }}
        data-testid="location-map"
        data-points={points.length}
      />
      <Card size="small" title={t('tracks.track')}>
        <Space direction="vertical" size={8} style={{ width: '100%' }}>
          <Space wrap>
            <Segmented<RangeKey>
              value={rangeKey}
              onChange={setRangeKey}
              options={(Object.keys(RANGES) as RangeKey[]).map((k) => ({ value: k, label: t(`tracks.range.${k}`) }))}
            />
            <Button type="primary" onClick={load} loading={track.isFetching} data-testid="track-load">
              {t('tracks.show')}
            </Button>
            {track.data && (
              <Typography.Text type="secondary" data-testid="track-summary">
                {t('tracks.summary', { count: track.data.stored, km: formatNumber(track.data.distanceM / 1000, 1) })}
              </Typography.Text>
            )}
          </Space>
          {range && track.data && points.length === 0 && <Empty description={t('tracks.noTrack')} />}
          {points.length > 1 && (
            <Space wrap style={{ width: '100%' }} data-testid="track-player">
              <Button
                icon={playing ? <PauseOutlined /> : <PlayCircleOutlined />}
                onClick={() => {
                  if (!playing && at >= last) setAt(first);
                  setPlaying(!playing);
                }}
                data-testid="track-play"
              >
                {playing ? t('tracks.pause') : t('tracks.play')}
              </Button>
              <Segmented<1 | 10>
                value={speed}
                onChange={setSpeed}
                options={[
                  { value: 1, label: '×1' },
                  { value: 10, label: '×10' },
                ]}
                aria-label={t('tracks.playSpeed')}
              />
              <Slider
                style={{ width: screens.md ? 360 : 220 }}
                min={first}
                max={last}
                value={at}
                onChange={(v) => {
                  setPlaying(false);
                  setAt(v);
                }}
                tooltip={{ formatter: (v) => (v ? formatDateTime(v) : '') }}
                aria-label={t('tracks.time')}
              />
              <Typography.Text data-testid="track-time" data-at={Math.round(at)}>
                {formatDateTime(at)}
              </Typography.Text>
            </Space>
          )}
        </Space>
      </Card>
    </Space>
  );
}
