// The time range of history pages: last week, month, three months, or a custom range (at most a year).
import { DatePicker, Segmented } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { HISTORY_RANGES, MAX_RANGE_DAYS, type HistoryRange } from '@genset/protocol';

export interface RangeValue {
  range: HistoryRange;
  start?: number;
  end?: number;
}

/** The request fields of a range; a custom range without both ends is not ready yet (null). */
export function rangeRequest(value: RangeValue): RangeValue | null {
  if (value.range !== 'custom') return { range: value.range };
  if (value.start === undefined || value.end === undefined) return null;
  return { range: 'custom', start: value.start, end: value.end };
}

export function RangeSelect({ value, onChange }: { value: RangeValue; onChange: (value: RangeValue) => void }) {
  const { t } = useTranslation();
  const picked: [Dayjs, Dayjs] | null =
    value.start !== undefined && value.end !== undefined ? [dayjs(value.start), dayjs(value.end)] : null;
  return (
    <div className="history-range">
      <Segmented<HistoryRange>
        value={value.range}
        onChange={(range) => {
          if (range !== 'custom') onChange({ range });
          else
            onChange({
              range,
              start: value.start ?? dayjs().subtract(1, 'day').startOf('day').valueOf(),
              end: value.end ?? dayjs().valueOf(),
            });
        }}
        options={HISTORY_RANGES.map((r) => ({ value: r, label: t(`history.ranges.${r}`) }))}
        data-testid="range-select"
      />
      {value.range === 'custom' ? (
        <DatePicker.RangePicker
          className="history-range-picker"
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          value={picked}
          allowClear={false}
          aria-label={t('history.customRange')}
          disabledDate={(day, info) => {
            if (day.isAfter(dayjs().endOf('day'))) return true;
            const from = info.from;
            return Boolean(from && Math.abs(day.diff(from, 'day')) > MAX_RANGE_DAYS);
          }}
          onChange={(days) => {
            if (days?.[0] && days[1]) onChange({ range: 'custom', start: days[0].valueOf(), end: days[1].valueOf() });
          }}
        />
      ) : null}
    </div>
  );
}
