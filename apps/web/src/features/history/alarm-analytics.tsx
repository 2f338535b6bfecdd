// What the alarms of the range say, of one set or of the fleet: key figures (episodes, shutdowns, mean time between
// shutdowns, time to acknowledge), the most frequent and the longest alarms, the sets with most, and when in the
// week they start (a grid of weekdays by hours, darker with more); also as an XLSX workbook.
import { Button, Col, Row, Space, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AlarmAnalyticsRequest, AlarmAnalyticsResponse, AlarmTally } from '@genset/protocol';
import { AlarmLevelTag } from '../../components/alarm-level-tag.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatNumber } from '../../components/format.ts';
import { setLinks } from '../gensets/links.ts';
import { exportAlarmAnalytics, useAlarmAnalytics } from './api.ts';

type SetRow = AlarmAnalyticsResponse['bySet'][number];

/** Episodes by weekday (Monday first) and hour: a table of cells shaded by their share of the busiest. */
function WeekGrid({ heat, zone }: { heat: number[][]; zone: string }) {
  const { t } = useTranslation();
  const most = Math.max(1, ...heat.flat());
  return (
    <div className="alarm-week" data-testid="alarm-week">
      <table aria-label={t('history.analytics.weekLabel', { zone })}>
        <thead>
          <tr>
            <th scope="col" />
            {Array.from({ length: 24 }, (_, h) => (
              <th scope="col" key={h}>
                {h % 3 === 0 ? String(h).padStart(2, '0') : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {heat.map((hours, d) => (
            <tr key={d}>
              <th scope="row">{t(`history.analytics.days.${d}`)}</th>
              {hours.map((n, h) => {
                const text = t('history.analytics.cell', {
                  day: t(`history.analytics.days.${d}`),
                  hour: String(h).padStart(2, '0'),
                  count: n,
                });
                return (
                  <td
                    key={h}
                    title={text}
                    aria-label={text}
                    data-count={n}
                    style={{
                      background: n ? `rgba(207, 19, 34, ${(0.12 + 0.88 * (n / most)).toFixed(2)})` : undefined,
                    }}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AlarmAnalyticsView({ request, fleet }: { request: AlarmAnalyticsRequest; fleet: boolean }) {
  const { t } = useTranslation();
  const analytics = useAlarmAnalytics(request);
  const [exporting, setExporting] = useState(false);
  if (analytics.isError && !analytics.data)
    return <ErrorState error={analytics.error} onRetry={() => void analytics.refetch()} />;
  const a = analytics.data;
  if (!a) return <div className="history-placeholder">{t('common.states.loading')}</div>;

  const alarmColumns = (figure: 'episodes' | 'hours'): TableColumnsType<AlarmTally> => [
    { key: 'level', title: t('history.alarms.level'), width: 100, render: (_, x) => <AlarmLevelTag level={x.level} /> },
    { key: 'title', title: t('history.alarms.alarm'), render: (_, x) => x.title },
    figure === 'episodes'
      ? {
          key: 'episodes',
          title: t('history.analytics.episodes'),
          width: 110,
          align: 'right',
          render: (_, x) => <span className="history-num">{formatNumber(x.episodes, 0)}</span>,
        }
      : {
          key: 'hours',
          title: t('history.analytics.hours'),
          width: 110,
          align: 'right',
          render: (_, x) => <span className="history-num">{formatNumber(x.hours, 1)}</span>,
        },
  ];
  const setColumns: TableColumnsType<SetRow> = [
    {
      key: 'name',
      title: t('history.alarms.set'),
      render: (_, s) => <Link to={setLinks.alarms(s.token)}>{s.name}</Link>,
    },
    {
      key: 'episodes',
      title: t('history.analytics.episodes'),
      width: 110,
      align: 'right',
      render: (_, s) => <span className="history-num">{formatNumber(s.episodes, 0)}</span>,
    },
    {
      key: 'shutdowns',
      title: t('history.analytics.shutdowns'),
      width: 110,
      align: 'right',
      render: (_, s) => <span className="history-num">{formatNumber(s.shutdowns, 0)}</span>,
    },
  ];
  const none = <Typography.Text type="secondary">{t('history.alarms.none')}</Typography.Text>;
  const minutes = (m: number | null) => (m === null ? '—' : t('history.analytics.minutes', { m: formatNumber(m, 1) }));

  return (
    <div data-testid="alarm-analytics">
      <Space size={24} wrap style={{ margin: '4px 0 12px' }} data-testid="alarm-figures">
        <Statistic title={t('history.analytics.episodes')} value={formatNumber(a.episodes, 0)} />
        <Statistic title={t('history.analytics.shutdowns')} value={formatNumber(a.shutdowns, 0)} />
        <Statistic
          title={t('history.analytics.mtbs')}
          value={a.mtbsHours === null ? '—' : t('history.analytics.hoursValue', { h: formatNumber(a.mtbsHours, 1) })}
          data-testid="alarm-mtbs"
        />
        <Statistic
          title={t('history.analytics.ack')}
          value={`${minutes(a.ack.medianMinutes)} / ${minutes(a.ack.p90Minutes)}`}
          data-testid="alarm-ack-times"
        />
        <Button
          icon={<DownloadOutlined />}
          loading={exporting}
          onClick={() => {
            setExporting(true);
            void exportAlarmAnalytics(request)
              .catch(() => undefined)
              .finally(() => setExporting(false));
          }}
          data-testid="analytics-export"
        >
          {t('history.analytics.export')}
        </Button>
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Typography.Title level={2} className="history-subtitle">
            {t('history.analytics.byCount')}
          </Typography.Title>
          <Table<AlarmTally>
            size="small"
            rowKey={(x) => `${x.code}:${x.level}`}
            columns={alarmColumns('episodes')}
            dataSource={a.byCount}
            pagination={false}
            locale={{ emptyText: none }}
            data-testid="alarms-by-count"
          />
        </Col>
        <Col xs={24} xl={12}>
          <Typography.Title level={2} className="history-subtitle">
            {t('history.analytics.byDuration')}
          </Typography.Title>
          <Table<AlarmTally>
            size="small"
            rowKey={(x) => `${x.code}:${x.level}`}
            columns={alarmColumns('hours')}
            dataSource={a.byDuration}
            pagination={false}
            locale={{ emptyText: none }}
            data-testid="alarms-by-duration"
          />
        </Col>
        {fleet ? (
          <Col xs={24} xl={12}>
            <Typography.Title level={2} className="history-subtitle">
              {t('history.analytics.bySet')}
            </Typography.Title>
            <Table<SetRow>
              size="small"
              rowKey="token"
              columns={setColumns}
              dataSource={a.bySet}
              pagination={false}
              locale={{ emptyText: none }}
              data-testid="alarms-by-set"
            />
          </Col>
        ) : null}
        <Col xs={24} xl={fleet ? 12 : 24}>
          <Typography.Title level={2} className="history-subtitle">
            {t('history.analytics.week', { zone: a.timeZone })}
          </Typography.Title>
          <WeekGrid heat={a.heat} zone={a.timeZone} />
        </Col>
      </Row>
    </div>
  );
}
