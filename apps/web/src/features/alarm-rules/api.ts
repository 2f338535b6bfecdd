// Calls of the company's threshold rules (its administrators).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AlarmPolicyResponse,
  AlarmPolicySaveRequest,
  AlarmRuleListResponse,
  AlarmRuleSaveRequest,
} from '@genset/protocol';
import { post } from '../../api/request.ts';

const keys = { rules: ['alarm-rules'] as const };

export function useAlarmRules() {
  return useQuery({
    queryKey: keys.rules,
    queryFn: ({ signal }) => post<AlarmRuleListResponse>('/alarm/rule/list', {}, { signal }),
    // the count of open alarms of each rule follows the fleet
    refetchInterval: 30_000,
  });
}

export function useSaveAlarmRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: AlarmRuleSaveRequest) => post<{ id: number }>('/alarm/rule/save', v, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.rules }),
  });
}

export function useDeleteAlarmRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<{ id: number }>('/alarm/rule/delete', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.rules }),
  });
}

const policyKey = ['alarm-policy'] as const;

export function useAlarmPolicy() {
  return useQuery({
    queryKey: policyKey,
    queryFn: ({ signal }) => post<AlarmPolicyResponse>('/alarm/policy', {}, { signal }),
  });
}

export function useSaveAlarmPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: AlarmPolicySaveRequest) => post<{ ok: boolean }>('/alarm/policy/save', v, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: policyKey }),
  });
}
