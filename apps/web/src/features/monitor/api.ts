// Calls of the live pages of a set and of the monitor pages: latest values, commands, the user's realtime
// items, alarms (current, history, chart), the maintenance countdown, rated values, and many sets at once.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AlarmEntry,
  AlarmChartRequest,
  AlarmChartResponse,
  AlarmHistoryRequest,
  AlarmHistoryResponse,
  GensetInfo,
  GensetListRequest,
  GensetListResponse,
  MaintainCountdownResponse,
  MonitorItem,
  MultiStatusRequest,
  MultiStatusResponse,
  SetInfo,
} from '@genset/protocol';
import { post } from '../../api/request.ts';
import { commandKeys } from '../../api/commands.ts';

export { sendAction, useCommands, type CommandOutcome, type SetCommand } from '../../api/commands.ts';

export interface MonitorList {
  status: number;
  alarmnum: number;
  ts: number | null;
  items: MonitorItem[];
}

export interface ItemMeta {
  key: string;
  name: string;
  group: string;
  unit: string;
  decimals: number;
}

export interface ItemSelection {
  custom: boolean;
  max: number;
  items: ItemMeta[];
  available: (ItemMeta & { realtime: boolean })[];
}

export const monitorKeys = {
  list: (token: string) => ['devices', 'monitorList', { token }] as const,
  commands: commandKeys.list,
  selection: (token: string) => ['deviceitems', 'select', { token }] as const,
  alarms: (token: string) => ['alarms', { token }] as const,
  alarmHistory: (params: AlarmHistoryRequest) => ['alarms', { token: params.token }, 'history', params] as const,
  alarmChart: (params: AlarmChartRequest) => ['alarms', { token: params.token }, 'chart', params] as const,
  countdown: (token: string) => ['maintain', 'countdown', { token }] as const,
  info: (token: string) => ['gensets', 'info', { token }] as const,
  myList: (params: GensetListRequest) => ['gensets', 'mylist', params] as const,
  multiStatus: (params: MultiStatusRequest) => ['devices', 'getmutilstatus', params] as const,
};

/** The set in the top bar (same query as the layout's, so both share one cache entry). */
export function useSetStatus(token: string) {
  return useQuery({
    queryKey: ['devices', 'getstatus', { token }],
    queryFn: ({ signal }) => post<SetInfo>('/devicedata/getstatus', { token }, { signal, silent: true }),
    enabled: Boolean(token),
    refetchInterval: 10_000,
  });
}

export function useMonitorList(token: string) {
  return useQuery({
    queryKey: monitorKeys.list(token),
    queryFn: ({ signal }) => post<MonitorList>('/realTimeData/monitorList', { token }, { signal }),
    enabled: Boolean(token),
  });
}

export function useItemSelection(token: string) {
  return useQuery({
    queryKey: monitorKeys.selection(token),
    queryFn: ({ signal }) => post<ItemSelection>('/deviceitems/select', { token }, { signal }),
    enabled: Boolean(token),
  });
}

export function useEditSelection(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (items: string[]) => post<ItemSelection>('/deviceitems/edit', { token, items }),
    onSuccess: (data) => client.setQueryData(monitorKeys.selection(token), data),
  });
}

export function useResetSelection(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => post<ItemSelection>('/deviceitems/reset', { token }),
    onSuccess: (data) => client.setQueryData(monitorKeys.selection(token), data),
  });
}

export function useAlarmHistory(params: AlarmHistoryRequest, enabled = true) {
  return useQuery({
    queryKey: monitorKeys.alarmHistory(params),
    queryFn: ({ signal }) => post<AlarmHistoryResponse>('/devicedata/getalarmhistory', params, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Acknowledges an alarm with a comment; the set's alarms are read again (the history shows who and when). */
export function useAcknowledgeAlarm(token: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; comment: string }) => post<AlarmEntry>('/alarm/ack', input),
    onSuccess: () => client.invalidateQueries({ queryKey: token ? monitorKeys.alarms(token) : ['alarms'] }),
  });
}

/** Shelves an alarm for a span with a reason, or (`minutes` absent) takes it off its shelf. */
export function useShelveAlarm(token: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; minutes?: number; reason?: string }) =>
      input.minutes === undefined
        ? post<AlarmEntry>('/alarm/unshelve', { id: input.id })
        : post<AlarmEntry>('/alarm/shelve', input),
    onSuccess: () => client.invalidateQueries({ queryKey: token ? monitorKeys.alarms(token) : ['alarms'] }),
  });
}

export function useAlarmChart(params: AlarmChartRequest, enabled = true) {
  return useQuery({
    queryKey: monitorKeys.alarmChart(params),
    queryFn: ({ signal }) => post<AlarmChartResponse>('/alarm/chart', params, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useCountdown(token: string) {
  return useQuery({
    queryKey: monitorKeys.countdown(token),
    queryFn: ({ signal }) => post<MaintainCountdownResponse>('/maintain/countdown', { token }, { signal }),
    enabled: Boolean(token),
    refetchInterval: 60_000,
  });
}

/** Rated values for the gauges' scales; the gauges fall back to sensible scales when this fails. */
export function useRatedValues(token: string) {
  return useQuery({
    queryKey: monitorKeys.info(token),
    queryFn: ({ signal }) => post<GensetInfo>('/genset/info', { token }, { signal, silent: true }),
    enabled: Boolean(token),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useMySets(params: GensetListRequest, enabled = true) {
  return useQuery({
    queryKey: monitorKeys.myList(params),
    queryFn: ({ signal }) => post<GensetListResponse>('/genset/mylist', params, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useMultiStatus(params: MultiStatusRequest) {
  return useQuery({
    queryKey: monitorKeys.multiStatus(params),
    queryFn: ({ signal }) => post<MultiStatusResponse>('/devicedata/getmutilstatus', params, { signal }),
    placeholderData: keepPreviousData,
    // the pushes keep values live; this picks up sets that went quiet and new sets
    refetchInterval: 60_000,
  });
}
