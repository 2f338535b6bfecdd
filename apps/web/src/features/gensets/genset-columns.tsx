// Columns of the set lists: name and number, status with alarms, power now against rating, fuel, battery,
// run hours, module, last data, rights or owner, actions. Less important columns appear on wider screens.
import { useMemo } from 'react';
import { Grid, Progress, Typography, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GensetListItem, GensetSort } from '@genset/protocol';
import { SetStatusTag } from '../../components/set-status-tag.tsx';
import { formatDateTime, formatNumber, formatValue, NONE } from '../../components/format.ts';
import type { ListScope } from './api.ts';
import { setLinks } from './links.ts';
import { RightsTag } from './rights-tag.tsx';
import { RowActions, type RowActionHandlers } from './row-actions.tsx';
import type { ListParams } from './use-list-params.ts';

function sortOrderOf(params: ListParams, key: GensetSort) {
  if (params.sort !== key) return null;
  return params.order === 'desc' ? ('descend' as const) : ('ascend' as const);
}

function PowerCell({ set }: { set: GensetListItem }) {
  const { t } = useTranslation();
  const kw = set.values.kw;
  const rated = set.ratedPowerKw;
  const percent = kw !== null && rated ? Math.max(0, Math.min(100, (kw / rated) * 100)) : null;
  return (
    <div className="genset-power">
      <span className="genset-num">
        {formatNumber(kw, 1)}
        <Typography.Text type="secondary"> / {rated ? formatValue(rated, 'kW', 0) : NONE}</Typography.Text>
      </span>
      {percent !== null ? (
        <Progress
          percent={percent}
          size={{ height: 4 }}
          showInfo={false}
          strokeColor="#389e0d"
          aria-label={t('gensets.list.load', { percent: Math.round(percent) })}
        />
      ) : null}
    </div>
  );
}

export function useGensetColumns(scope: ListScope, params: ListParams, handlers: RowActionHandlers) {
  const { t } = useTranslation();
  // On phones the status and power move under the name, so a row fits without scrolling sideways.
  const narrow = !Grid.useBreakpoint().sm;
  return useMemo<TableColumnsType<GensetListItem>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('gensets.columns.name'),
        sorter: true,
        sortOrder: sortOrderOf(params, 'name'),
        ellipsis: true,
        width: 200,
        render: (_, set) => (
          <div className="genset-name-cell">
            <Link to={setLinks.detail(set.token)} className="genset-name" title={set.name}>
              {set.name}
            </Link>
            <Typography.Text type="secondary" className="genset-sub">
              {set.number ?? NONE}
            </Typography.Text>
            {narrow ? (
              <div className="genset-narrow-state">
                <SetStatusTag status={set.status} alarmCount={set.alarmCount} />
                {set.values.kw !== null ? (
                  <span className="genset-num">{formatValue(set.values.kw, 'kW', 1)}</span>
                ) : null}
              </div>
            ) : null}
          </div>
        ),
      },
      {
        key: 'status',
        responsive: ['sm'],
        dataIndex: 'status',
        title: t('gensets.columns.status'),
        sorter: true,
        sortOrder: sortOrderOf(params, 'status'),
        width: 130,
        render: (_, set) => <SetStatusTag status={set.status} alarmCount={set.alarmCount} />,
      },
      {
        key: 'power',
        title: t('gensets.columns.power'),
        width: 130,
        responsive: ['sm'],
        render: (_, set) => <PowerCell set={set} />,
      },
      {
        key: 'fuel',
        title: t('gensets.columns.fuel'),
        width: 80,
        align: 'right',
        responsive: ['md'],
        render: (_, set) => <span className="genset-num">{formatValue(set.values.fuelLevel, '%', 0)}</span>,
      },
      {
        key: 'battery',
        title: t('gensets.columns.battery'),
        width: 90,
        align: 'right',
        responsive: ['lg'],
        render: (_, set) => <span className="genset-num">{formatValue(set.values.batteryVoltage, 'V', 1)}</span>,
      },
      {
        key: 'runHours',
        title: t('gensets.columns.runHours'),
        width: 90,
        align: 'right',
        responsive: ['lg'],
        render: (_, set) => <span className="genset-num">{formatValue(set.values.runHours, 'h', 0)}</span>,
      },
      {
        key: 'module',
        title: t('gensets.columns.module'),
        width: 150,
        ellipsis: true,
        responsive: ['xxl'],
        render: (_, set) => (
          <div className="genset-name-cell">
            <span className="genset-mono">{set.modemId ?? NONE}</span>
            <Typography.Text type="secondary" className="genset-sub">
              {set.controllerModel ?? NONE}
            </Typography.Text>
          </div>
        ),
      },
      {
        key: 'lastSeen',
        dataIndex: 'lastSeen',
        title: t('gensets.columns.lastSeen'),
        sorter: true,
        sortOrder: sortOrderOf(params, 'lastSeen'),
        width: 140,
        responsive: ['md'],
        render: (_, set) => <span className="genset-num">{formatDateTime(set.lastSeen)}</span>,
      },
      scope === 'mylist'
        ? {
            key: 'rights',
            title: t('gensets.columns.rights'),
            width: 100,
            responsive: ['sm'],
            render: (_, set) => <RightsTag rights={set.rights} owned={set.owned} />,
          }
        : {
            key: 'owner',
            title: t('gensets.columns.owner'),
            width: 130,
            ellipsis: true,
            responsive: ['lg'],
            render: (_, set) => set.ownerName ?? NONE,
          },
      {
        key: 'actions',
        title: t('gensets.columns.actions'),
        width: narrow ? 64 : 132,
        render: (_, set) => <RowActions set={set} handlers={handlers} compact={narrow} />,
      },
    ],
    [t, params, scope, handlers, narrow],
  );
}
