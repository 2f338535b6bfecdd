// Calls of protocol management (register maps as versioned documents): list, info, create, copy, save as a
// new version, publish, delete, export as a JSON file and import one back.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_BASE,
  REQUEST_TIMEOUT_MS,
  type Envelope,
  type ProtocolDetail,
  type ProtocolDocumentInput,
  type ProtocolListRequest,
  type ProtocolSaveRequest,
  type ProtocolSummary,
  type ProtocolText,
} from '@genset/protocol';
import { saveBlob } from '../../api/download.ts';
import { get, post, ApiError, buildHeaders, TransportError } from '../../api/request.ts';
import { feedback, TOAST_SECONDS } from '../../api/feedback.ts';
import { translate } from '../../i18n/index.ts';

export interface ProtocolList {
  list: ProtocolSummary[];
  total: number;
  page: number;
  size: number;
}

/** What a create, copy, save or import answers: the version it made or edited. */
export interface VersionRef {
  id: number;
  key: string;
  version: number;
  status: 'draft' | 'published';
  /** False when a draft was edited in place. */
  created: boolean;
}

export interface PublishResult {
  id: number;
  key: string;
  version: number;
  sets: number;
  modules: number;
}

/** One problem of a refused document, at its exact place (e.g. `items[3](gen_kw).address`). */
export interface DocumentProblem {
  path: string;
  /** Worded by the server in the language of the request. */
  message: string;
  /** The rule broken (e.g. `protocolDoc.overlaps`) and the values its message names. */
  rule?: string;
  params?: Record<string, string | number>;
}

export const protocolKeys = {
  all: ['protocols'] as const,
  list: (params: ProtocolListRequest) => ['protocols', 'list', params] as const,
  info: (id: number) => ['protocols', 'info', { id }] as const,
};

/** The problems a refused document came back with, if that is what the error is. */
export function problemsOf(error: unknown): DocumentProblem[] {
  if (!(error instanceof ApiError)) return [];
  const problems = (error.data as { problems?: unknown } | null)?.problems;
  return Array.isArray(problems) ? (problems as DocumentProblem[]) : [];
}

export function useProtocolList(params: ProtocolListRequest) {
  return useQuery({
    queryKey: protocolKeys.list(params),
    queryFn: ({ signal }) => post<ProtocolList>('/protocol/list', params, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useProtocolInfo(id: number) {
  return useQuery({
    queryKey: protocolKeys.info(id),
    queryFn: ({ signal }) => get<ProtocolDetail>(`/protocol/info/${id}`, undefined, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

function useInvalidateProtocols() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: protocolKeys.all });
}

export function useCreateProtocol() {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (document: ProtocolDocumentInput) => post<VersionRef>('/protocol/add', { document }),
    onSuccess: invalidate,
  });
}

export function useCopyProtocol() {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (values: { id: number; key: string; name?: ProtocolText }) =>
      post<VersionRef>('/protocol/copy', values),
    onSuccess: invalidate,
  });
}

export function useSaveProtocol() {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (values: ProtocolSaveRequest) => post<VersionRef>('/protocol/save', values),
    onSuccess: invalidate,
  });
}

export function usePublishProtocol() {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (id: number) => post<PublishResult>('/protocol/publish', { id }),
    onSuccess: invalidate,
  });
}

export function useDeleteProtocol() {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (id: number) => post<null>('/protocol/del', { id }),
    onSuccess: invalidate,
  });
}

export function useImportProtocol() {
  const invalidate = useInvalidateProtocols();
  return useMutation({
    mutationFn: (document: unknown) => post<VersionRef>('/protocol/import', { document: document as object }),
    onSuccess: invalidate,
  });
}

/**
 * Downloads a version's document. The server answers with the file itself (its own media type), or with an
 * envelope when it refuses, which gets the usual toast.
 */
export async function exportProtocol(id: number, fallbackName: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/protocol/export/${id}`, {
      headers: buildHeaders(),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    const message = translate('errors.network');
    feedback().message.error({ content: message, duration: TOAST_SECONDS.network });
    throw new TransportError(message);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.includes('genset-protocol')) {
    const envelope = (await response.json().catch(() => null)) as Envelope | null;
    const message = envelope?.msg || translate('errors.generic');
    feedback().message.error({ content: message, duration: TOAST_SECONDS.serverError });
    throw new ApiError(envelope?.code ?? 500, message, envelope?.data ?? null);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  saveBlob(await response.blob(), name);
  return name;
}
