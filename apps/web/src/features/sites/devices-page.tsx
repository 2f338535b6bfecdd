// /ems/devices: the station's sets by role (PCS, BMS, grid meter, PV) with their state and key live values —
// the BMS's cell extremes with the ids of those cells — and a link to each set's own live page. The sets are
// followed on the realtime channel, whose pushes carry every item (the cells' ids too).
import { useMemo } from 'react';
import { Card, Col, Descriptions, Row, Space, Spin, Typography } from 'antd';
import { LineChartOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SITE_DEVICE_ROLES, type SiteDevicesResponse } from '@genset/protocol';
import { useFleetRealtime, type LiveSet } from '../../realtime/index.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime, formatValue } from '../../components/format.ts';
import { SetStatusTag } from '../../components/set-status-tag.tsx';
import { ToneTag } from '../../components/tone-tag.tsx';
import { setLinks } from '../gensets/links.ts';
import { useSiteDevices } from './api.ts';
import { StationPage } from './station-page.tsx';
import type { Station } from './use-station.ts';
import './sites.css';

type Device = SiteDevicesResponse['list'][number];

/** Pushes keep the values current; the call is repeated now and then for the sets' state and alarm counts. */
const DEVICES_REFRESH_MS = 15_000;

/** The item that says which cell an extreme belongs to: `max_cell_voltage` → `max_cell_voltage_id`. */
const idKey = (key: string) => `${key}_id`;

export interface DeviceRow {
  key: string;
  name: string;
  text: string;
  /** The cell an extreme was read at, when the set says. */
  cell: number | null;
}

/** The rows of a set: pushed values over the call's, an extreme's cell id beside it rather than on its own row. */
export function deviceRows(device: Device, live: LiveSet | undefined): DeviceRow[] {
  const value = (key: string) => {
    const pushed = live?.values[key];
    return pushed !== undefined ? pushed : (device.values.find((v) => v.key === key)?.value ?? null);
  };
  const keys = new Set(device.values.map((v) => v.key));
  return device.values
    .filter((v) => !(v.key.endsWith('_id') && keys.has(v.key.slice(0, -3))))
    .map((v) => {
      const cell = value(idKey(v.key));
      const now = value(v.key);
      // a coded value (operating state, control mode …) in its word, not its number
      const word = now === null ? undefined : v.options.find((o) => o.value === now)?.label;
      return {
        key: v.key,
        name: v.name,
        text: word ?? formatValue(now, v.unit, v.decimals),
        cell: cell === null ? null : Math.round(cell),
      };
    });
}

function DeviceCard({ device, live }: { device: Device; live: LiveSet | undefined }) {
  const { t } = useTranslation();
  const rows = deviceRows(device, live);
  return (
    <Card
      size="small"
      title={
        <span className="ems-device-title">
          <ToneTag tone="purple">{t(`ems.roles.${device.role}`)}</ToneTag>
          <span>{device.name}</span>
        </span>
      }
      extra={
        <Link to={setLinks.live(device.token)} aria-label={t('ems.devices.liveOf', { name: device.name })}>
          <LineChartOutlined /> {t('ems.devices.live')}
        </Link>
      }
      data-testid={`device-${device.role}`}
    >
      <Space size={8} wrap style={{ marginBottom: 8 }}>
        {device.runs ? (
          <SetStatusTag status={device.status} alarmCount={device.alarmNum} />
        ) : (
          // a grid meter only measures: it is connected or not, never "stopped"
          <ToneTag tone={device.online ? 'green' : 'grey'} data-testid="device-connection">
            {device.online ? t('ems.devices.measuring') : t('gensets.status.offline')}
          </ToneTag>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('ems.devices.lastSeen', { time: formatDateTime(device.lastSeen, true) })}
        </Typography.Text>
      </Space>
      {rows.length ? (
        <Descriptions
          size="small"
          column={1}
          bordered
          className="ems-device-values"
          items={rows.map((row) => ({
            key: row.key,
            label: row.name,
            children: (
              <span data-key={row.key}>
                <span className="ems-value">{row.text}</span>
                {row.cell === null ? null : (
                  <span className="ems-muted" data-testid="cell-id">
                    {' '}
                    · {t('ems.devices.cell', { id: row.cell })}
                  </span>
                )}
              </span>
            ),
          }))}
        />
      ) : (
        <EmptyState description={t('ems.devices.noValues')} />
      )}
    </Card>
  );
}

function Devices({ station }: { station: Station }) {
  const { t } = useTranslation();
  const devices = useSiteDevices(station.token, { refetchMs: DEVICES_REFRESH_MS });
  const tokens = useMemo(() => (devices.data?.list ?? []).map((d) => d.token), [devices.data]);
  const { sets: live } = useFleetRealtime(tokens);
  if (devices.isError && !devices.data)
    return <ErrorState error={devices.error} onRetry={() => void devices.refetch()} />;
  if (!devices.data) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  const order = (d: Device) => SITE_DEVICE_ROLES.indexOf(d.role);
  const list = [...devices.data.list].sort((a, b) => order(a) - order(b));
  return (
    <Card size="small" title={<h2 className="ems-page-title">{t('ems.devices.title')}</h2>} data-testid="ems-devices">
      {list.length === 0 ? (
        <EmptyState description={t('ems.devices.empty')} />
      ) : (
        <Row gutter={[16, 16]}>
          {list.map((device) => (
            <Col key={device.token} xs={24} md={12} xxl={8}>
              <DeviceCard device={device} live={live[device.token]} />
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}

export function DevicesPage() {
  return <StationPage>{(station) => <Devices station={station} />}</StationPage>;
}
