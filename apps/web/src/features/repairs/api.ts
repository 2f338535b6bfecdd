// Calls of repair requests: the own list and the service queue, one request, moving it along, sending the form
// with its pictures (with progress), and a picture or thumbnail of a request as a blob.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RepairAddResponse,
  RepairDetailResponse,
  RepairListResponse,
  RepairState,
  RepairUpdateRequest,
} from '@genset/protocol';
import { get, post } from '../../api/request.ts';
import { fetchBlob, uploadForm } from '../../api/upload.ts';

export type RepairScope = 'my' | 'list';

export interface RepairListParams {
  page: number;
  size: number;
  state?: RepairState;
}

export const repairKeys = {
  all: ['repairs'] as const,
  list: (scope: RepairScope, params: RepairListParams) => ['repairs', scope, params] as const,
  detail: (token: string) => ['repairs', 'detail', { token }] as const,
  picture: (token: string, name: string, thumb: boolean) => ['repairs', 'picture', { token, name, thumb }] as const,
};

function query(params: RepairListParams) {
  return { page: params.page, size: params.size, ...(params.state ? { state: params.state } : {}) };
}

export function useRepairList(scope: RepairScope, params: RepairListParams, enabled = true) {
  return useQuery({
    queryKey: repairKeys.list(scope, params),
    queryFn: ({ signal }) => get<RepairListResponse>(`/baoxiu/${scope}`, query(params), { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One request; failures (not found) are shown by the page. */
export function useRepairDetail(token: string) {
  return useQuery({
    queryKey: repairKeys.detail(token),
    queryFn: ({ signal }) => get<RepairDetailResponse>('/baoxiu/detail', { token }, { signal, silent: true }),
    enabled: Boolean(token),
    retry: false,
  });
}

export function useUpdateRepair() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: RepairUpdateRequest) => post<{ state: RepairState }>('/baoxiu/update', values),
    onSuccess: () => client.invalidateQueries({ queryKey: repairKeys.all }),
  });
}

export interface RepairFormValues {
  token: string;
  contact: string;
  phone: string;
  address: string;
  description: string;
  pictures: File[];
}

/** Sends the form; field errors come back for the form to show, other refusals as a toast. */
export function useSubmitRepair(onProgress: (share: number) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: RepairFormValues) => {
      const form = new FormData();
      for (const key of ['token', 'contact', 'phone', 'address', 'description'] as const) form.append(key, values[key]);
      for (const file of values.pictures) form.append('pictures', file, file.name);
      return uploadForm<RepairAddResponse>('/baoxiu/add', form, { onProgress });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: repairKeys.all }),
  });
}

/** A blob as a data: address (freed with the string, unlike a blob: address that must be revoked). */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable picture'));
    reader.readAsDataURL(blob);
  });
}

/** A picture of a request (or its thumbnail), fetched with the session's headers, as an address for <img>. */
export function useRepairPicture(token: string, name: string, thumb: boolean, enabled = true) {
  return useQuery({
    queryKey: repairKeys.picture(token, name, thumb),
    queryFn: async ({ signal }) =>
      dataUrlOf(await fetchBlob('/baoxiu/picture', { token, name, thumb: thumb ? '1' : '0' }, signal)),
    enabled,
    staleTime: Infinity,
    gcTime: thumb ? 10 * 60_000 : 60_000,
    retry: false,
  });
}
