// /ems/statistics: the station's charge, discharge and income for a day, a month (by day) or a year (by
// month) of its own calendar, split by tariff period: bars, a table per period and per bucket, and the same
// figures as an XLSX or CSV file.
import { useMemo, useState } from 'react';
import { Card, Col, DatePicker, Row, Segmented, Space, Spin, Statistic, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  localClock,
  PRICE_PERIODS,
  STATS_GRANULARITIES,
  type EnergyFigures,
  type StatsGranularity,
} from '@genset/protocol';
import { ErrorState } from '../../components/error-state.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { formatNumber, localUnit } from '../../components/format.ts';
import { exportSiteStats, useSiteStats } from './api.ts';
import { PERIOD_HEX } from './periods.ts';
import { currencyUnit, ENERGY_DECIMALS, energyFigure, formatMoneyNumber, moneyFigure } from './site-format.ts';
import { EnergyChart, IncomeChart } from './stats-charts.tsx';
import { StationPage } from './station-page.tsx';
import type { Station } from './use-station.ts';
import './sites.css';

const DATE_FORMAT: Record<StatsGranularity, string> = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' };

/** The date the server is asked for: the day, month or year of `day` (YYYY-MM-DD). */
export function statsDate(granularity: StatsGranularity, day: string): string {
  return granularity === 'day' ? day : granularity === 'month' ? day.slice(0, 7) : day.slice(0, 4);
}

type FigureRow = EnergyFigures & { key: string; label: string; colour?: string };

function useFigureColumns(currency: string, first: string): ColumnsType<FigureRow> {
  const { t } = useTranslation();
  const kwh = localUnit('kWh');
  const money = currencyUnit(currency);
  const num = (value: number) => formatNumber(value, ENERGY_DECIMALS);
  return [
    {
      key: 'label',
      title: first,
      render: (_, row) =>
        row.colour ? (
          <span>
            <span className="ems-period-swatch" style={{ background: row.colour }} aria-hidden />
            {row.label}
          </span>
        ) : (
          <Typography.Text strong={row.key === 'total'}>{row.label}</Typography.Text>
        ),
    },
    { key: 'charge', title: `${t('ems.stats.charge')} (${kwh})`, align: 'right', render: (_, r) => num(r.chargeKwh) },
    {
      key: 'discharge',
      title: `${t('ems.stats.discharge')} (${kwh})`,
      align: 'right',
      render: (_, r) => num(r.dischargeKwh),
    },
    {
      key: 'cost',
      title: `${t('ems.stats.chargeCost')} (${money})`,
      align: 'right',
      render: (_, r) => formatMoneyNumber(r.chargeCost),
    },
    {
      key: 'earned',
      title: `${t('ems.stats.dischargeIncome')} (${money})`,
      align: 'right',
      render: (_, r) => formatMoneyNumber(r.dischargeIncome),
    },
    {
      key: 'income',
      title: `${t('ems.stats.income')} (${money})`,
      align: 'right',
      render: (_, r) => <Typography.Text strong>{formatMoneyNumber(r.income)}</Typography.Text>,
    },
  ];
}

function Statistics({ station }: { station: Station }) {
  const { t } = useTranslation();
  const site = station.info!.site;
  // today in the station's calendar, as the page opened
  const [today] = useState(() => localClock(Date.now(), site.timeZone).day);
  const [granularity, setGranularity] = useState<StatsGranularity>('month');
  const [day, setDay] = useState(today);
  const date = statsDate(granularity, day);
  const request = useMemo(() => ({ token: station.token, granularity, date }), [station.token, granularity, date]);
  const stats = useSiteStats(request);
  const data = stats.data;
  const currency = data?.currency ?? site.currency;

  const periodRows: FigureRow[] = data
    ? [
        ...PRICE_PERIODS.map((p) => ({
          key: p,
          label: t(`ems.periods.${p}`),
          colour: PERIOD_HEX[p],
          ...data.periods[p],
        })),
        { key: 'total', label: t('ems.stats.total'), ...data.totals },
      ]
    : [];
  const bucketRows: FigureRow[] = (data?.buckets ?? []).map((b) => ({ key: b.bucket, label: b.bucket, ...b }));
  const periodColumns = useFigureColumns(currency, t('ems.stats.period'));
  const bucketColumns = useFigureColumns(currency, granularity === 'year' ? t('ems.stats.month') : t('ems.stats.day'));

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="ems-statistics">
      <Card
        size="small"
        title={<h2 className="ems-page-title">{t('ems.stats.title')}</h2>}
        extra={
          <ExportButton
            disabled={!data}
            onExport={(format) => exportSiteStats({ token: station.token, granularity, date, format })}
          />
        }
      >
        <Space wrap size={12}>
          <Segmented<StatsGranularity>
            value={granularity}
            onChange={setGranularity}
            options={STATS_GRANULARITIES.map((g) => ({ value: g, label: t(`ems.stats.granularity.${g}`) }))}
            data-testid="stats-granularity"
          />
          <DatePicker
            picker={granularity === 'day' ? 'date' : granularity}
            value={dayjs(day)}
            format={DATE_FORMAT[granularity]}
            allowClear={false}
            disabledDate={(d: Dayjs) => d.format('YYYY-MM-DD') > today}
            onChange={(d) => d && setDay(d.format('YYYY-MM-DD'))}
            aria-label={t('ems.stats.date')}
            data-testid="stats-date"
          />
          <Typography.Text type="secondary">{t('ems.stats.timeZone', { zone: site.timeZone })}</Typography.Text>
        </Space>
        {data ? (
          <Row gutter={[16, 8]} style={{ marginTop: 16 }} className="ems-figures" data-testid="stats-totals">
            <Col xs={12} md={6}>
              <Statistic
                title={t('ems.stats.charge')}
                value={data.totals.chargeKwh}
                formatter={energyFigure}
                suffix={localUnit('kWh')}
              />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title={t('ems.stats.discharge')}
                value={data.totals.dischargeKwh}
                formatter={energyFigure}
                suffix={localUnit('kWh')}
              />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title={t('ems.stats.chargeCost')}
                value={data.totals.chargeCost}
                formatter={moneyFigure}
                suffix={currencyUnit(currency)}
              />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title={t('ems.stats.income')}
                value={data.totals.income}
                formatter={moneyFigure}
                suffix={currencyUnit(currency)}
              />
            </Col>
          </Row>
        ) : null}
      </Card>

      {stats.isError && !data ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : !data ? (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin />
        </div>
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={14}>
              <Card size="small" title={t('ems.stats.energy')}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('ems.stats.energyHelp')}
                </Typography.Text>
                <EnergyChart stats={data} />
              </Card>
            </Col>
            <Col xs={24} xl={10}>
              <Card size="small" title={t('ems.stats.incomeTitle')}>
                <IncomeChart stats={data} />
              </Card>
            </Col>
          </Row>
          <Card size="small" title={t('ems.stats.byPeriod')}>
            <Table<FigureRow>
              size="small"
              rowKey="key"
              columns={periodColumns}
              dataSource={periodRows}
              pagination={false}
              scroll={{ x: 'max-content' }}
              loading={stats.isFetching && stats.isPlaceholderData}
              data-testid="stats-periods"
            />
          </Card>
          {granularity === 'day' ? null : (
            <Card size="small" title={granularity === 'year' ? t('ems.stats.byMonth') : t('ems.stats.byDay')}>
              <Table<FigureRow>
                size="small"
                rowKey="key"
                columns={bucketColumns}
                dataSource={bucketRows}
                pagination={false}
                scroll={{ x: 'max-content' }}
                loading={stats.isFetching && stats.isPlaceholderData}
                data-testid="stats-buckets"
              />
            </Card>
          )}
        </>
      )}
    </Space>
  );
}

export function StatisticsPage() {
  return <StationPage>{(station) => <Statistics station={station} />}</StationPage>;
}
