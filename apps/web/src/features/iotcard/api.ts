// Calls of SIM cards: a set's card with its use in a billing month and the months before, and setting its plan.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IotcardInfoResponse, IotcardSetPlanRequest, IotcardSetPlanResponse } from '@genset/protocol';
import { post } from '../../api/request.ts';

export const simKeys = {
  all: ['iotcard'] as const,
  info: (token: string, month: string | undefined) => ['iotcard', 'info', token, month ?? 'now'] as const,
};

/** `month` (YYYY-MM): a billing month; absent: the one running now. */
export function useSimInfo(token: string, month?: string) {
  return useQuery({
    queryKey: simKeys.info(token, month),
    queryFn: ({ signal }) =>
      post<IotcardInfoResponse>('/iotcard/getinfo', { token, ...(month ? { month } : {}) }, { signal }),
    enabled: Boolean(token),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

/** Refusals are shown beside the dialog's fields (silent). */
export function useSetPlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: IotcardSetPlanRequest) =>
      post<IotcardSetPlanResponse>('/iotcard/setPlan', body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: simKeys.all }),
  });
}

/** The billing month before or after one (YYYY-MM). */
export function shiftMonth(month: string, by: number): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
