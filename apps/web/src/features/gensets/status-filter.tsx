// The state filter of the set lists and the multi-set monitor: all, or one state of the partition (running,
// standby, stopped, offline — their counts add up to all), each with its count; and apart from them, visibly
// not one of the parts, the alarm overlay: the sets with active alarms, whatever their state.
import { Segmented } from 'antd';
import { WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { GensetStatusFilter } from '@genset/protocol';
import { STATE_ORDER, STATUS_HEX } from '../../components/set-status.ts';
import './gensets.css';

type PartFilter = Exclude<GensetStatusFilter, 'alarm'>;
const PARTS: PartFilter[] = ['all', ...STATE_ORDER];

export function StatusFilter({
  value,
  counts,
  onChange,
  testId,
}: {
  value: GensetStatusFilter;
  counts: Partial<Record<GensetStatusFilter, number>> | undefined;
  onChange: (value: GensetStatusFilter) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const alarmOn = value === 'alarm';
  return (
    <div className="genset-status-filter" role="group" aria-label={t('gensets.list.statusFilter')} data-testid={testId}>
      <Segmented<PartFilter | ''>
        value={alarmOn ? '' : value}
        onChange={(v) => v && onChange(v)}
        options={PARTS.map((key) => ({
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
      <button
        type="button"
        className={`genset-alarm-overlay${alarmOn ? ' genset-alarm-overlay-on' : ''}`}
        aria-pressed={alarmOn}
        onClick={() => onChange(alarmOn ? 'all' : 'alarm')}
        data-testid="status-filter-alarm"
      >
        <WarningFilled style={{ color: STATUS_HEX.alarm }} />
        {t('gensets.status.alarm')}
        {counts?.alarm !== undefined ? <span className="genset-status-count">{counts.alarm}</span> : null}
      </button>
    </div>
  );
}
