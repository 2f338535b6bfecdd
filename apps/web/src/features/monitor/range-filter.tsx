// The time range of history queries: last week, month or three months (spec 9), or dates of one's choice.
import { DatePicker, Segmented, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { HISTORY_RANGES, MAX_RANGE_DAYS, type HistoryRange } from '@genset/protocol';

export interface RangeValue {
  range: HistoryRange;
  start?: number;
  end?: number;
}

export function RangeFilter({ value, onChange }: { value: RangeValue; onChange: (value: RangeValue) => void }) {
  const { t } = useTranslation();
  const picked: [Dayjs, Dayjs] | null =
    value.start !== undefined && value.end !== undefined ? [dayjs(value.start), dayjs(value.end)] : null;
  return (
    <Space size={8} wrap>
      <Segmented<HistoryRange>
        value={value.range}
        options={HISTORY_RANGES.map((range) => ({ value: range, label: t(`live.ranges.${range}`) }))}
        onChange={(range) =>
          onChange(
            range === 'custom'
              ? { range, start: dayjs().subtract(7, 'day').startOf('day').valueOf(), end: dayjs().valueOf() }
              : { range },
          )
        }
        data-testid="range-filter"
      />
      {value.range === 'custom' ? (
        <DatePicker.RangePicker
          value={picked}
          allowClear={false}
          disabledDate={(day, info) =>
            day.isAfter(dayjs().endOf('day')) ||
            (info.from ? Math.abs(day.diff(info.from, 'day')) > MAX_RANGE_DAYS - 1 : false)
          }
          onChange={(days) => {
            if (!days?.[0] || !days[1]) return;
            onChange({ range: 'custom', start: days[0].startOf('day').valueOf(), end: days[1].endOf('day').valueOf() });
          }}
          aria-label={t('live.ranges.custom')}
        />
      ) : null}
    </Space>
  );
}
