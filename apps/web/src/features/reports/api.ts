// Calls of set reports and the weather (spec 7: /genset/reportone, /baobiao/info, /baobiao/add,
// /data/dieselGeneratorReport, /data/airCompressorReport, /getWeather) and the report export.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ReportExportRequest,
  ReportInfoResponse,
  ReportOneResponse,
  ReportPrefillResponse,
  ReportSaveRequest,
  ReportType,
  WeatherResponse,
} from '@genset/protocol';
import { get, post } from '../../api/request.ts';
import { downloadFile } from '../../api/download.ts';

export const reportKeys = {
  one: (token: string) => ['reports', 'one', { token }] as const,
  info: (token: string, type: ReportType, version?: number) => ['reports', 'info', { token, type, version }] as const,
  weather: (token: string) => ['reports', 'weather', { token }] as const,
};

export function useReportOne(token: string) {
  return useQuery({
    queryKey: reportKeys.one(token),
    queryFn: ({ signal }) => post<ReportOneResponse>('/genset/reportone', { token }, { signal }),
    enabled: Boolean(token),
  });
}

export function useReportInfo(token: string, type: ReportType, version?: number, enabled = true) {
  return useQuery({
    queryKey: reportKeys.info(token, type, version),
    queryFn: ({ signal }) =>
      post<ReportInfoResponse>(
        '/baobiao/info',
        { token, type, ...(version !== undefined ? { version } : {}) },
        { signal },
      ),
    enabled: Boolean(token) && enabled,
  });
}

export function prefillReport(type: ReportType, request: { token: string; from: string; to: string }) {
  return post<ReportPrefillResponse>(type === 1 ? '/data/dieselGeneratorReport' : '/data/airCompressorReport', request);
}

export function useSaveReport(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ReportSaveRequest) => post<{ id: number; version: number }>('/baobiao/add', request),
    onSuccess: () => client.invalidateQueries({ queryKey: ['reports', 'one', { token }] }),
  });
}

export function exportReport(request: ReportExportRequest): Promise<string> {
  return downloadFile('/baobiao/export', request, `report.${request.format ?? 'pdf'}`);
}

/** The weather at the set's place; `refresh` asks the source anew (the sync button). */
export function fetchWeather(token: string, refresh = false, signal?: AbortSignal) {
  return get<WeatherResponse>('/getWeather', { token, ...(refresh ? { refresh: '1' } : {}) }, { signal, silent: true });
}

export function useWeather(token: string) {
  return useQuery({
    queryKey: reportKeys.weather(token),
    queryFn: ({ signal }) => fetchWeather(token, false, signal),
    enabled: Boolean(token),
    staleTime: 5 * 60_000,
    refetchInterval: 10 * 60_000,
    retry: false,
  });
}
