// The station line of the energy-station header: name, status, total charge, discharge and income since the
// station was built (kWh and the station's currency, the yuan by default).
import { Flex, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { localUnit } from '../../components/format.ts';
import { currencyUnit, energyFigure, moneyFigure } from '../../features/sites/site-format.ts';
import { SiteStatusTag } from '../../features/sites/site-status-tag.tsx';
import type { Station } from '../../features/sites/use-station.ts';
import './station-totals.css';

export function StationTotals({ station }: { station: Station | null }) {
  const { t } = useTranslation();
  const none = t('common.none');
  const site = station?.info?.site;
  const figures = [
    {
      key: 'charge',
      title: t('ems.totals.charge'),
      value: site?.total_charge,
      formatter: energyFigure,
      suffix: localUnit('kWh'),
    },
    {
      key: 'discharge',
      title: t('ems.totals.discharge'),
      value: site?.total_discharge,
      formatter: energyFigure,
      suffix: localUnit('kWh'),
    },
    {
      key: 'income',
      title: t('ems.totals.income'),
      value: site?.total_income,
      formatter: moneyFigure,
      suffix: currencyUnit(site?.currency),
    },
  ];
  return (
    <Flex gap={24} wrap align="center" className="ems-totals" data-testid="station-totals">
      <div>
        <Typography.Text type="secondary">{t('ems.station')}</Typography.Text>
        <div>
          <Typography.Text strong data-testid="station-name">
            {site ? site.name : station ? none : t('ems.noStation')}
          </Typography.Text>{' '}
          {site ? <SiteStatusTag status={station?.status ?? site.status} /> : <Tag>{t('ems.status.unknown')}</Tag>}
        </div>
      </div>
      {figures.map((f) => (
        <Statistic
          key={f.key}
          title={f.title}
          value={f.value ?? none}
          formatter={f.value === undefined ? undefined : f.formatter}
          suffix={f.suffix}
          styles={{ content: { fontSize: 18 } }}
          data-testid={`total-${f.key}`}
        />
      ))}
    </Flex>
  );
}
