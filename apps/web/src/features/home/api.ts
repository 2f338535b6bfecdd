// The home dashboard's summary (/home/summary): counts by status, active alarms by level, output now,
// positions, the 30-day energy ranking and the latest alarms of every set the user sees.
import { useQuery } from '@tanstack/react-query';
import type { HomeSummaryResponse } from '@genset/protocol';
import { post } from '../../api/request.ts';

export const HOME_SUMMARY_KEY = ['home', 'summary', {}] as const;

export function useHomeSummary() {
  return useQuery({
    queryKey: HOME_SUMMARY_KEY,
    queryFn: ({ signal }) => post<HomeSummaryResponse>('/home/summary', {}, { signal }),
    refetchInterval: 60_000,
  });
}
