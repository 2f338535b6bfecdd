// /ems/devices: the station's sets by role (PCS, BMS, grid meter, PV) with their state and key live values —
// the BMS's cell extremes with the cells' ids among them — and a link to each set's own live page.
import { Card, Col, Descriptions, Row, Space, Spin, Typography } from 'antd';
import { LineChartOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SITE_DEVICE_ROLES, type SiteDevicesResponse } from '@genset/protocol';
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

const DEVICES_REFRESH_MS = 5_000;

function DeviceCard({ device }: { device: Device }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={
        <Space size={8} wrap>
          <ToneTag tone="purple">{t(`ems.roles.${device.role}`)}</ToneTag>
          <span>{device.name}</span>
        </Space>
      }
      extra={
        <Link to={setLinks.live(device.token)} aria-label={t('ems.devices.liveOf', { name: device.name })}>
          <LineChartOutlined /> {t('ems.devices.live')}
        </Link>
      }
      data-testid={`device-${device.role}`}
    >
      <Space size={8} wrap style={{ marginBottom: 8 }}>
        <SetStatusTag status={device.status} alarmCount={device.alarmNum} />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('ems.devices.lastSeen', { time: formatDateTime(device.lastSeen, true) })}
        </Typography.Text>
      </Space>
      {device.values.length ? (
        <Descriptions
          size="small"
          column={1}
          bordered
          className="ems-device-values"
          items={device.values.map((v) => ({
            key: v.key,
            label: v.name,
            children: <span data-key={v.key}>{formatValue(v.value, v.unit, v.decimals)}</span>,
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
              <DeviceCard device={device} />
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
