// Which period a report opens on: last month when the set's data covers at least as many of its days as it
// covers of this month so far, else this month so far; a set without data opens on last month.
import dayjs, { type Dayjs } from 'dayjs';

export type Period = [string, string];

const DAY = 'YYYY-MM-DD';

export function lastMonth(today: Dayjs = dayjs()): Period {
  const start = today.subtract(1, 'month').startOf('month');
  return [start.format(DAY), start.endOf('month').format(DAY)];
}

export function thisMonth(today: Dayjs = dayjs()): Period {
  return [today.startOf('month').format(DAY), today.format(DAY)];
}

/** Days of `period` on or after `from` (both ends counted). */
function daysWithData(period: Period, from: string): number {
  const start = dayjs(period[0]).isAfter(dayjs(from)) ? dayjs(period[0]) : dayjs(from);
  const end = dayjs(period[1]);
  return end.isBefore(start) ? 0 : end.diff(start, 'day') + 1;
}

export function openingPeriod(dataFrom: string | null, today: Dayjs = dayjs()): Period {
  const last = lastMonth(today);
  if (!dataFrom) return last;
  const current = thisMonth(today);
  return daysWithData(current, dataFrom) > daysWithData(last, dataFrom) ? current : last;
}
