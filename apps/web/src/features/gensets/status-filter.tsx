// The status filter of the set lists (all, offline, shutdown, standby, running, alarm) with a count on each.
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { GENSET_STATUS_FILTERS, type GensetStatusFilter } from '@genset/protocol';
import { STATUS_HEX } from '../../components/set-status.ts';

export function StatusFilter({
  value,
  counts,
  onChange,
}: {
  value: GensetStatusFilter;
  counts: Partial<Record<GensetStatusFilter, number>> | undefined;
  onChange: (value: GensetStatusFilter) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="genset-status-filter" role="group" aria-label={t('gensets.list.statusFilter')}>
      <Segmented<GensetStatusFilter>
        value={value}
        onChange={onChange}
        options={GENSET_STATUS_FILTERS.map((key) => ({
          value: key,
          label: (
            <span className="genset-status-option" data-testid={`status-filter-${key}`}>
              {key !== 'all' ? <span className="genset-status-dot" style={{ background: STATUS_HEX[key] }} /> : null}
              {t(`gensets.status.${key}`)}
              {counts?.[key] !== undefined ? <span className="genset-status-count">{counts[key]}</span> : null}
            </span>
          ),
        }))}
      />
    </div>
  );
}
