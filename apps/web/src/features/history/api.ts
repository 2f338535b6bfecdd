// Calls of history, alarms and their charts (spec 7 "Monitoring"): trends, the history table, alarm
// history and counts, the items a set measures, the sets to choose from, and the runtime-data export.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  AlarmAnalyticsRequest,
  AlarmAnalyticsResponse,
  AlarmChartRequest,
  AlarmChartResponse,
  AlarmHistoryRequest,
  AlarmHistoryResponse,
  GensetListResponse,
  HistoryChartRequest,
  HistoryChartResponse,
  HistoryTableRequest,
  HistoryTableResponse,
  MonitorItem,
  RuntimeExportRequest,
} from '@genset/protocol';
import { post } from '../../api/request.ts';
import { downloadFile } from '../../api/download.ts';

export function useSetOptions(search: string) {
  return useQuery({
    queryKey: ['history', 'sets', { search }],
    queryFn: ({ signal }) =>
      post<GensetListResponse>(
        '/genset/mylist',
        { page: 1, size: 50, status: 'all', ...(search ? { search } : {}) },
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** The set's measurements (names, units, decimals) from its protocol. */
export function useSetItems(token: string) {
  return useQuery({
    queryKey: ['history', 'items', { token }],
    queryFn: ({ signal }) =>
      post<{ items: MonitorItem[] }>('/realTimeData/monitorList', { token }, { signal }).then((r) => r.items),
    enabled: Boolean(token),
    staleTime: 60_000,
  });
}

export function useHistoryChart(request: HistoryChartRequest | null) {
  return useQuery({
    queryKey: ['history', 'chart', request],
    queryFn: ({ signal }) => post<HistoryChartResponse>('/history/chart', request!, { signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}

export function useHistoryTable(request: HistoryTableRequest | null) {
  return useQuery({
    queryKey: ['history', 'table', request],
    queryFn: ({ signal }) => post<HistoryTableResponse>('/devicedata/gethistory', request!, { signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}

export function useAlarmHistory(request: AlarmHistoryRequest | null) {
  return useQuery({
    queryKey: ['history', 'alarms', request],
    queryFn: ({ signal }) => post<AlarmHistoryResponse>('/devicedata/getalarmhistory', request!, { signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}

export function useAlarmChart(request: AlarmChartRequest) {
  return useQuery({
    queryKey: ['history', 'alarmChart', request],
    queryFn: ({ signal }) => post<AlarmChartResponse>('/alarm/chart', request, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmAnalytics(request: AlarmAnalyticsRequest) {
  return useQuery({
    queryKey: ['history', 'alarmAnalytics', request],
    queryFn: ({ signal }) => post<AlarmAnalyticsResponse>('/alarm/analytics', request, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function exportAlarmAnalytics(request: AlarmAnalyticsRequest): Promise<string> {
  return downloadFile('/alarm/analytics/export', request, 'alarm-analytics.xlsx');
}

export function exportRuntimeData(request: RuntimeExportRequest): Promise<string> {
  return downloadFile('/genset/exportruntimedata', request, `history.${request.format === 'csv' ? 'csv' : 'xlsx'}`);
}
