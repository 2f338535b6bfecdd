// The maintenance tab of a set (/top/maintain): the controller's countdown to the next service, kept live;
// overdue and due are said in words as well as in red; below it the set's maintenance plan and history. It
// does not re-establish a lost connection (spec 4).
import { Card, Col, Descriptions, Row, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { useSetRealtime } from '../../realtime/index.ts';
import { useCountdown } from './api.ts';
import { ConnectionTag } from './connection-tag.tsx';
import { PlanSection } from '../maintenance/plan-section.tsx';
import { localUnit } from '../../components/format.ts';
import { formatReading, formatTime, formatWithUnit, NO_READING } from './format.ts';
import './monitor.css';

/** Fewer hours left than this reads "due soon". */
const SOON_HOURS = 50;

export function MaintainTab({ token }: { token: string }) {
  const { t } = useTranslation();
  const countdown = useCountdown(token);
  const { live, connection } = useSetRealtime(token, { reconnect: false });

  if (countdown.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (countdown.isError) return <ErrorState error={countdown.error} onRetry={() => void countdown.refetch()} />;

  const data = countdown.data;
  const liveHours = live?.values.maintenance_hours;
  const hoursLeft = liveHours !== undefined ? liveHours : data.hoursLeft;
  const liveRun = live?.values.run_hours;
  const runHours = liveRun !== undefined ? liveRun : data.runHours;
  const dueAlarm = live?.alarms ? live.alarms.some((alarm) => alarm.code === 'maintenance_due') : data.due;
  const ts = live?.ts || data.ts;
  const unit = localUnit(data.unit || 'h');

  const state =
    hoursLeft === null
      ? 'unknown'
      : hoursLeft < 0
        ? 'overdue'
        : hoursLeft === 0 || dueAlarm
          ? 'due'
          : hoursLeft <= SOON_HOURS
            ? 'soon'
            : 'ok';
  const color = { unknown: 'default', overdue: 'red', due: 'red', soon: 'orange', ok: 'green' }[state];
  const shown = hoursLeft === null ? null : Math.abs(hoursLeft);

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="maintain-tab">
      <ConnectionTag connection={connection} ts={ts} retrying={false} />
      <Card size="small" title={t('live.maintain.title')}>
        <Row gutter={[24, 16]} align="middle">
          <Col xs={24} md={10}>
            <Space size={16} align="center">
              <ToolOutlined style={{ fontSize: 40, color: state === 'ok' ? '#389e0d' : '#cf1322' }} aria-hidden />
              <Statistic
                title={state === 'overdue' ? t('live.maintain.overdueBy') : t('live.maintain.hoursLeft')}
                value={formatReading(shown, 0)}
                suffix={shown === null ? undefined : unit}
                valueStyle={{
                  fontSize: 36,
                  fontVariantNumeric: 'tabular-nums',
                  color: state === 'overdue' || state === 'due' ? '#cf1322' : undefined,
                }}
                data-testid="maintain-hours"
              />
            </Space>
            <div style={{ marginTop: 8 }}>
              <Tag color={color} data-testid="maintain-state" data-state={state}>
                {t(`live.maintain.states.${state}`)}
              </Tag>
            </div>
          </Col>
          <Col xs={24} md={14}>
            <Descriptions
              size="small"
              column={1}
              items={[
                {
                  key: 'run',
                  label: t('live.maintain.runHours'),
                  children: runHours === null ? NO_READING : formatWithUnit(runHours, 0, 'h'),
                },
                {
                  key: 'alarm',
                  label: t('live.maintain.dueAlarm'),
                  children: dueAlarm ? (
                    <Tag color="red">{t('live.maintain.dueAlarmOn')}</Tag>
                  ) : (
                    <Typography.Text>{t('live.maintain.dueAlarmOff')}</Typography.Text>
                  ),
                },
                { key: 'ts', label: t('live.maintain.readAt'), children: formatTime(ts) },
              ]}
            />
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
              {t('live.maintain.explain')}
            </Typography.Paragraph>
          </Col>
        </Row>
      </Card>
      <PlanSection token={token} runHours={runHours} />
    </Space>
  );
}
