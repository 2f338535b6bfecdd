// The station line of the energy-station header: name, status, total charge, discharge and income.
import { Flex, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function StationTotals({ token }: { token: string }) {
  const { t } = useTranslation();
  const none = t('common.none');
  const figures = [
    { key: 'charge', title: t('ems.totals.charge'), suffix: t('ems.units.kwh') },
    { key: 'discharge', title: t('ems.totals.discharge'), suffix: t('ems.units.kwh') },
    { key: 'income', title: t('ems.totals.income'), suffix: t('ems.units.yuan') },
  ];
  return (
    <Flex gap={24} wrap align="center" data-testid="station-totals">
      <div>
        <Typography.Text type="secondary">{t('ems.station')}</Typography.Text>
        <div>
          <Typography.Text strong>{token ? none : t('ems.noStation')}</Typography.Text>{' '}
          <Tag>{t('ems.status.unknown')}</Tag>
        </div>
      </div>
      {figures.map((f) => (
        <Statistic key={f.key} title={f.title} value={none} suffix={f.suffix} styles={{ content: { fontSize: 18 } }} />
      ))}
    </Flex>
  );
}
