// Calls of maintenance plans: a set's plan and history, items, marking tasks done, the pending tasks over the
// sets one sees and their counts, the company's templates, maintenance links and the public view they open.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MaintCountsResponse,
  MaintHistoryResponse,
  MaintItemSaveRequest,
  MaintPlanResponse,
  MaintPublicResponse,
  MaintTaskDoneRequest,
  MaintTasksResponse,
  MaintTemplate,
  MaintTemplateApplyRequest,
  MaintTemplateSaveRequest,
} from '@genset/protocol';
import { post } from '../../api/request.ts';

export const maintKeys = {
  all: ['maintenance'] as const,
  plan: (token: string) => ['maintenance', 'plan', token] as const,
  history: (token: string, page: number, size: number) => ['maintenance', 'history', token, page, size] as const,
  tasks: (state: string, page: number, size: number) => ['maintenance', 'tasks', state, page, size] as const,
  counts: ['maintenance', 'counts'] as const,
  templates: ['maintenance', 'templates'] as const,
  link: (mtoken: string) => ['maintenance', 'public', mtoken] as const,
};

export type PageSize = 10 | 20 | 30 | 50;

export function usePlan(token: string) {
  return useQuery({
    queryKey: maintKeys.plan(token),
    queryFn: ({ signal }) => post<MaintPlanResponse>('/maintain/plan', { token }, { signal }),
    enabled: Boolean(token),
    refetchInterval: 60_000,
  });
}

export function useHistory(token: string, page: number, size: PageSize) {
  return useQuery({
    queryKey: maintKeys.history(token, page, size),
    queryFn: ({ signal }) => post<MaintHistoryResponse>('/maintain/history', { token, page, size }, { signal }),
    enabled: Boolean(token),
    placeholderData: keepPreviousData,
  });
}

export function useFleetTasks(state: 'due' | 'overdue' | 'all', page: number, size: PageSize) {
  return useQuery({
    queryKey: maintKeys.tasks(state, page, size),
    queryFn: ({ signal }) => post<MaintTasksResponse>('/maintain/tasks', { state, page, size }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export function useMaintCounts() {
  return useQuery({
    queryKey: maintKeys.counts,
    queryFn: ({ signal }) => post<MaintCountsResponse>('/maintain/counts', {}, { signal, silent: true }),
    refetchInterval: 60_000,
  });
}

export function useTemplates(enabled: boolean) {
  return useQuery({
    queryKey: maintKeys.templates,
    queryFn: ({ signal }) => post<{ list: MaintTemplate[] }>('/maintain/template/list', {}, { signal }),
    enabled,
  });
}

/** A maintenance link's view, without a session; its refusals are shown by the page. */
export function usePublicPlan(mtoken: string) {
  return useQuery({
    queryKey: maintKeys.link(mtoken),
    queryFn: ({ signal }) => post<MaintPublicResponse>('/maintain/public', { mtoken }, { signal, silent: true }),
    enabled: Boolean(mtoken),
    retry: false,
    refetchInterval: 60_000,
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: maintKeys.all });
}

/** A write whose refusals the dialog shows beside its fields (silent), or the usual toast. */
function useWrite<B extends object, R = { id: number }>(url: string, silent = false) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: B) => post<R>(url, body, { silent }),
    onSuccess: invalidate,
  });
}

export const useSaveItem = () => useWrite<MaintItemSaveRequest>('/maintain/item/save', true);
export const useDeleteItem = () => useWrite<{ token: string; id: number }>('/maintain/item/delete');
export const useToggleItem = () => useWrite<{ token: string; id: number; enabled: boolean }>('/maintain/item/toggle');
export const useMarkDone = () =>
  useWrite<MaintTaskDoneRequest, { id: number; next: { id: number; dueDate: string | null; dueHours: number | null } }>(
    '/maintain/task/done',
    true,
  );
export const useSaveTemplate = () => useWrite<MaintTemplateSaveRequest>('/maintain/template/save', true);
export const useDeleteTemplate = () => useWrite<{ id: number }>('/maintain/template/delete');
export const useApplyTemplate = () =>
  useWrite<MaintTemplateApplyRequest, { sets: number; added: number; skipped: number }>('/maintain/template/apply');
export const useCreateLink = () =>
  useWrite<{ token: string; days: number }, { id: number; mtoken: string; expiresAt: number }>(
    '/maintain/mtoken/create',
  );
export const useRevokeLink = () => useWrite<{ token: string; id: number }>('/maintain/mtoken/revoke');
