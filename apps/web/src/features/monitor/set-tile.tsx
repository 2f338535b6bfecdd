// One set on the monitor grid: name (opens its realtime tab), status and alarms in colour and words, and
// its key values, kept live.
import { Card, Space, Tag, Typography } from 'antd';
import { WarningFilled } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MultiStatusEntry } from '@genset/protocol';
import type { LiveSet } from '../../realtime/index.ts';
import { localUnit } from '../../components/format.ts';
import { formatReading } from './format.ts';
import { SetStatusTag } from './set-status-tag.tsx';
import { statusKey } from '../../components/set-status.ts';

/** Short names of the usual key values, so three fit side by side; other items keep the protocol's name. */
const SHORT_NAMES = new Set([
  'gen_kw',
  'gen_voltage_l1',
  'gen_freq',
  'engine_rpm',
  'coolant_temp',
  'oil_pressure',
  'fuel_level',
  'battery_voltage',
  'run_hours',
]);

export interface TileState {
  status: number;
  alarmnum: number;
  offline: boolean;
}

/** Status, alarms and values of a set: the latest push where there is one, else the list call's answer. */
export function tileState(entry: MultiStatusEntry, live: LiveSet | undefined): TileState {
  const status = live?.status ?? entry.status;
  return { status, alarmnum: live?.alarmnum ?? entry.alarmnum, offline: statusKey(status) === 'offline' };
}

export function SetTile({ entry, live }: { entry: MultiStatusEntry; live: LiveSet | undefined }) {
  const { t } = useTranslation();
  const state = tileState(entry, live);
  const classes = ['set-tile', state.offline ? 'set-tile-offline' : '', state.alarmnum > 0 ? 'set-tile-alarm' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <Card
      size="small"
      className={classes}
      title={
        <Link to={`/top/realtime?token=${encodeURIComponent(entry.token)}`} title={entry.name}>
          {entry.name}
        </Link>
      }
      extra={
        <Space size={4}>
          <SetStatusTag status={state.status} />
          {state.alarmnum > 0 ? (
            <Tag color="red" icon={<WarningFilled />} style={{ marginInlineEnd: 0 }} data-testid="tile-alarms">
              {state.alarmnum}
            </Tag>
          ) : null}
        </Space>
      }
      data-testid="set-tile"
      data-token={entry.token}
    >
      <div className="set-tile-values">
        {entry.values.map((item) => {
          const value = live && item.key in live.values ? (live.values[item.key] ?? null) : item.value;
          const label = value === item.value ? item.label : null;
          return (
            <div key={item.key} className="set-tile-value" data-key={item.key}>
              <div className="set-tile-value-name" title={item.name}>
                {SHORT_NAMES.has(item.key) ? t(`live.short.${item.key}`) : item.name}
              </div>
              <div className="set-tile-value-number">
                {label ?? formatReading(value, item.decimals)}
                {label === null && value !== null && item.unit ? (
                  <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 12 }}>
                    {' '}
                    {localUnit(item.unit)}
                  </Typography.Text>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
    </Card>
  );
}
