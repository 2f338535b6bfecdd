// Calls of energy-storage stations (/site/*, /ems/*): the station list, one station's info with its live
// overview, its devices, logs and run records, price templates and their versions, sending a tactic and a
// demand-response event, statistics by period and their export, and the station's alarms.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DemandResponseRequest,
  SendTacticRequest,
  SendTacticResponse,
  SiteAddRequest,
  SiteAlarmHistoryRequest,
  SiteAlarmHistoryResponse,
  SiteCurrentAlarmsResponse,
  SiteDevicesResponse,
  SiteEditRequest,
  SiteInfoResponse,
  SiteListResponse,
  SiteLogInfoResponse,
  SiteLogResponse,
  SiteRunKind,
  SiteRunRecordResponse,
  SiteStatsExportRequest,
  SiteStatsRequest,
  SiteStatsResponse,
  TemplateInfoResponse,
  TemplateListRequest,
  TemplateListResponse,
  TemplateSaveRequest,
} from '@genset/protocol';
import { get, post } from '../../api/request.ts';
import { downloadFile } from '../../api/download.ts';

/** Query calls take their numbers as text; these are what the console sends. */
export interface SiteListParams {
  page: number;
  size: number;
  name?: string;
}

export interface RunRecordParams {
  token: string;
  page: number;
  size: number;
  kind?: SiteRunKind;
  start?: number;
  end?: number;
}

export const siteKeys = {
  all: ['sites'] as const,
  list: (params: SiteListParams) => ['sites', 'list', params] as const,
  info: (token: string) => ['sites', 'info', token] as const,
  devices: (token: string) => ['sites', 'devices', token] as const,
  log: (params: { token: string; page: number; size: number }) => ['sites', 'log', params] as const,
  logInfo: (token: string, id: number) => ['sites', 'logInfo', token, id] as const,
  runRecords: (params: RunRecordParams) => ['sites', 'runRecords', params] as const,
  stats: (params: SiteStatsRequest) => ['sites', 'stats', params] as const,
  alarmsCurrent: (token: string) => ['sites', 'alarms', 'current', token] as const,
  alarmsHistory: (params: SiteAlarmHistoryRequest) => ['sites', 'alarms', 'history', params] as const,
  templates: ['sites', 'templates'] as const,
  templateList: (params: TemplateListRequest) => ['sites', 'templates', 'list', params] as const,
  templateInfo: (id: number, version?: number) => ['sites', 'templates', 'info', id, version ?? 'newest'] as const,
};

/** Lists refresh on their own: the station list has no realtime channel of its own (one station per page). */
const LIST_REFRESH_MS = 30_000;

export function useSiteList(params: SiteListParams) {
  return useQuery({
    queryKey: siteKeys.list(params),
    queryFn: ({ signal }) =>
      get<SiteListResponse>(
        '/site/list',
        { page: params.page, size: params.size, ...(params.name ? { name: params.name } : {}) },
        { signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: LIST_REFRESH_MS,
  });
}

/** The station's header, editable fields, live overview and tactic state. */
export function useSiteInfo(token: string, options: { refetchMs?: number } = {}) {
  return useQuery({
    queryKey: siteKeys.info(token),
    queryFn: ({ signal }) => get<SiteInfoResponse>(`/site/getInfo/${encodeURIComponent(token)}`, undefined, { signal }),
    enabled: Boolean(token),
    refetchInterval: options.refetchMs,
  });
}

export function useSiteDevices(token: string, options: { refetchMs?: number } = {}) {
  return useQuery({
    queryKey: siteKeys.devices(token),
    queryFn: ({ signal }) => get<SiteDevicesResponse>('/site/devices', { token }, { signal }),
    enabled: Boolean(token),
    refetchInterval: options.refetchMs,
  });
}

export function useSiteLog(params: { token: string; page: number; size: number }) {
  return useQuery({
    queryKey: siteKeys.log(params),
    queryFn: ({ signal }) => get<SiteLogResponse>('/site/log', params, { signal }),
    enabled: Boolean(params.token),
    placeholderData: keepPreviousData,
  });
}

export function useSiteLogInfo(token: string, id: number | null) {
  return useQuery({
    queryKey: siteKeys.logInfo(token, id ?? 0),
    queryFn: ({ signal }) => get<SiteLogInfoResponse>('/site/logInfo', { token, id: id ?? 0 }, { signal }),
    enabled: Boolean(token) && id !== null,
  });
}

export function useRunRecords(params: RunRecordParams) {
  return useQuery({
    queryKey: siteKeys.runRecords(params),
    queryFn: ({ signal }) => get<SiteRunRecordResponse>('/site/logRunRecord', { ...params }, { signal }),
    enabled: Boolean(params.token),
    placeholderData: keepPreviousData,
  });
}

export function useSiteStats(params: SiteStatsRequest) {
  return useQuery({
    queryKey: siteKeys.stats(params),
    queryFn: ({ signal }) => post<SiteStatsResponse>('/ems/stats', params, { signal }),
    enabled: Boolean(params.token && params.date),
    placeholderData: keepPreviousData,
  });
}

/** The figures as a file; the answer is the file itself. */
export function exportSiteStats(params: SiteStatsExportRequest & { granularity: string; date: string }) {
  const format = params.format ?? 'xlsx';
  return downloadFile('/ems/stats/export', params, `station-${params.granularity}-${params.date}.${format}`);
}

export function useCurrentSiteAlarms(token: string) {
  return useQuery({
    queryKey: siteKeys.alarmsCurrent(token),
    queryFn: ({ signal }) => post<SiteCurrentAlarmsResponse>('/ems/alarm/current', { token }, { signal }),
    enabled: Boolean(token),
  });
}

export function useSiteAlarmHistory(params: SiteAlarmHistoryRequest) {
  return useQuery({
    queryKey: siteKeys.alarmsHistory(params),
    queryFn: ({ signal }) => post<SiteAlarmHistoryResponse>('/ems/alarm/history', params, { signal }),
    enabled: Boolean(params.token),
    placeholderData: keepPreviousData,
  });
}

export function useTemplateList(params: TemplateListRequest) {
  return useQuery({
    queryKey: siteKeys.templateList(params),
    queryFn: ({ signal }) => post<TemplateListResponse>('/ems/template/list', params, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useTemplateInfo(id: number | null, version?: number) {
  return useQuery({
    queryKey: siteKeys.templateInfo(id ?? 0, version),
    queryFn: ({ signal }) =>
      post<TemplateInfoResponse>('/ems/template/info', { id, ...(version ? { version } : {}) }, { signal }),
    enabled: id !== null,
  });
}

/** Refusals are shown beside the editor's fields (silent). */
export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TemplateSaveRequest) =>
      post<{ id: number; version: number; validFrom: number }>('/ems/template/save', body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<{ deleted: number }>('/ems/template/delete', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.templates }),
  });
}

/** A wrong password or a module's refusal is shown in the dialog (silent). */
export function useSendTactic() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SendTacticRequest) => post<SendTacticResponse>('/ems/sendTactic', body, { silent: true }),
    onSettled: (_data, _error, body) => client.invalidateQueries({ queryKey: siteKeys.info(body.token) }),
  });
}

export function useDemandResponse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DemandResponseRequest) => post<{ id: string }>('/ems/demandResponse', body, { silent: true }),
    onSettled: (_data, _error, body) => client.invalidateQueries({ queryKey: siteKeys.info(body.token) }),
  });
}

/** Refusals are shown beside the form's fields (silent). */
export function useAddSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SiteAddRequest) => post<{ token: string }>('/site/add', body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

export function useEditSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SiteEditRequest) => post<null>('/site/edit', body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

export function useDeleteSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => post<{ deleted: number }>('/site/del', { token }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}
