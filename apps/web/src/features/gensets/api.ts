// Calls of set management and subscriptions (spec 7 "Genset"): lists, info, add, update, delete, codes,
// subscribe by code, subscribers and their rights, and the list export.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GensetAddRequest,
  GensetAddResponse,
  GensetExportRequest,
  GensetInfo,
  GensetListRequest,
  GensetListResponse,
  GensetRights,
  GensetUpdateRequest,
  SubListRequest,
  SubscriptionItem,
} from '@genset/protocol';
import { post } from '../../api/request.ts';
import { downloadFile } from '../../api/download.ts';

export type ListScope = 'mylist' | 'list';

export interface ProtocolOption {
  key: string;
  name: string;
  layout: string;
}

interface Page<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}

export const gensetKeys = {
  all: ['gensets'] as const,
  list: (scope: ListScope, params: GensetListRequest) => ['gensets', scope, params] as const,
  info: (token: string) => ['gensets', 'info', { token }] as const,
  protocols: ['gensets', 'protocols', {}] as const,
  subscribers: (params: SubListRequest) => ['gensets', 'subscribers', params] as const,
};

export function useGensetList(scope: ListScope, params: GensetListRequest, options: { refetchMs?: number } = {}) {
  return useQuery({
    queryKey: gensetKeys.list(scope, params),
    queryFn: ({ signal }) => post<GensetListResponse>(`/genset/${scope}`, params, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchMs,
  });
}

export function useGensetInfo(token: string) {
  return useQuery({
    queryKey: gensetKeys.info(token),
    queryFn: ({ signal }) => post<GensetInfo>('/genset/info', { token }, { signal }),
    enabled: Boolean(token),
  });
}

export function useProtocolOptions() {
  return useQuery({
    queryKey: gensetKeys.protocols,
    queryFn: ({ signal }) => post<ProtocolOption[]>('/genset/protocols', {}, { signal }),
    staleTime: 60_000,
  });
}

/** After a change every list and info of sets may be stale. */
function useInvalidateSets() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: gensetKeys.all });
}

export function useAddGenset() {
  const invalidate = useInvalidateSets();
  return useMutation({
    mutationFn: (values: GensetAddRequest) => post<GensetAddResponse>('/genset/add', values),
    onSuccess: invalidate,
  });
}

export function useUpdateGenset() {
  const invalidate = useInvalidateSets();
  return useMutation({
    mutationFn: (values: GensetUpdateRequest) => post<unknown>('/genset/update', values),
    onSuccess: invalidate,
  });
}

export function useDeleteGensets() {
  const invalidate = useInvalidateSets();
  return useMutation({
    mutationFn: (tokens: string[]) => post<{ deleted: number }>('/genset/del', { tokens }),
    onSuccess: invalidate,
  });
}

export function useResetCodes() {
  const invalidate = useInvalidateSets();
  return useMutation({
    mutationFn: (token: string) =>
      post<{ subscriptionCode: string; controlCode: string }>('/genset/resetcodes', { token }),
    onSuccess: invalidate,
  });
}

export function useSubscribe() {
  const invalidate = useInvalidateSets();
  return useMutation({
    mutationFn: (code: string) =>
      post<{ token: string; name: string; rights: GensetRights }>('/sub/add', { code }, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useSubscribers(params: SubListRequest, enabled = true) {
  return useQuery({
    queryKey: gensetKeys.subscribers(params),
    queryFn: ({ signal }) => post<Page<SubscriptionItem>>('/sub/list', params, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useUpdateSubscription() {
  const invalidate = useInvalidateSets();
  return useMutation({
    mutationFn: (values: { id: number; rights: GensetRights }) => post<unknown>('/sub/update', values),
    onSuccess: invalidate,
  });
}

/** `token`: the caller leaves that set; `ids`: a manager removes these subscriptions. */
export function useDeleteSubscriptions() {
  const invalidate = useInvalidateSets();
  return useMutation({
    mutationFn: (values: { token: string } | { ids: number[] }) => post<{ deleted: number }>('/sub/del', values),
    onSuccess: invalidate,
  });
}

export function exportGensets(request: GensetExportRequest): Promise<string> {
  const ext = request.format === 'csv' ? 'csv' : 'xlsx';
  return downloadFile('/genset/export', request, `gensets.${ext}`);
}
