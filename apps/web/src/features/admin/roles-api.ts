// Calls of the company's roles, member invitations and applications, and the operation log.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApplicationStatus,
  DataAuthRoleResponse,
  InviteCreateRequest,
  InviteListResponse,
  LogListResponse,
  MemberAuditRequest,
  MemberListResponse,
  RoleListResponse,
  RoleSaveRequest,
  RoleUpdateRequest,
} from '@genset/protocol';
import { get, post } from '../../api/request.ts';
import { downloadFile } from '../../api/download.ts';

export const roleKeys = {
  all: ['admin', 'roles'] as const,
  list: (q: object) => ['admin', 'roles', 'list', q] as const,
  dataAuth: ['admin', 'roles', 'dataAuth'] as const,
  invites: (q: object) => ['admin', 'invites', q] as const,
  members: (q: object) => ['admin', 'members', q] as const,
  log: (q: object) => ['admin', 'oplog', q] as const,
};

export function useRoleList(q: { name?: string; status?: '0' | '1'; page: number; size: number }) {
  return useQuery({
    queryKey: roleKeys.list(q),
    queryFn: ({ signal }) => get<RoleListResponse>('/role/list', q, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useDataAuth(enabled = true) {
  return useQuery({
    queryKey: roleKeys.dataAuth,
    queryFn: ({ signal }) => get<DataAuthRoleResponse>('/role/getDataAuthRole', undefined, { signal }),
    enabled,
  });
}

function useInvalidate(...keys: (readonly string[])[]) {
  const client = useQueryClient();
  return () => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useSaveRole() {
  const invalidate = useInvalidate(roleKeys.all);
  return useMutation({
    mutationFn: (body: RoleSaveRequest | RoleUpdateRequest) =>
      'id' in body
        ? post<{ id: number }>('/role/update', body, { silent: true })
        : post<{ id: number }>('/role/save', body, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  const invalidate = useInvalidate(roleKeys.all);
  return useMutation({ mutationFn: (id: number) => post<null>('/role/delete', { id }), onSuccess: invalidate });
}

export function useRoleStatus() {
  const invalidate = useInvalidate(roleKeys.all);
  return useMutation({
    mutationFn: (body: { id: number; status: 0 | 1 }) => post<null>('/user/roleStatus', body),
    onSuccess: invalidate,
  });
}

export function useInvites(q: { page: number; size: number }) {
  return useQuery({
    queryKey: roleKeys.invites(q),
    queryFn: ({ signal }) => get<InviteListResponse>('/invite/list', q, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateInvite() {
  const invalidate = useInvalidate(['admin', 'invites']);
  return useMutation({
    mutationFn: (body: InviteCreateRequest) =>
      post<{ id: number; code: string; link: string }>('/invite/create', body, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useRevokeInvite() {
  const invalidate = useInvalidate(['admin', 'invites']);
  return useMutation({ mutationFn: (id: number) => post<null>('/invite/revoke', { id }), onSuccess: invalidate });
}

export function useMembers(q: { status?: ApplicationStatus; page: number; size: number }) {
  return useQuery({
    queryKey: roleKeys.members(q),
    queryFn: ({ signal }) => get<MemberListResponse>('/member/list', q, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAuditMember() {
  const invalidate = useInvalidate(['admin', 'members'], ['admin', 'users'], roleKeys.all);
  return useMutation({
    mutationFn: (body: MemberAuditRequest) =>
      post<{ status: ApplicationStatus }>('/member/audit', body, { silent: true }),
    onSuccess: invalidate,
  });
}

export interface LogFilters {
  keyword?: string;
  matter?: string;
  start?: number;
  end?: number;
}

export function useOperationLog(q: LogFilters & { page: number; size: number }) {
  return useQuery({
    queryKey: roleKeys.log(q),
    queryFn: ({ signal }) => get<LogListResponse>('/log/list', { ...q }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function exportOperationLog(filters: LogFilters) {
  return downloadFile('/log/export', filters, 'operation-log.xlsx');
}

/** The full address of an invitation link. */
export function inviteUrl(code: string, origin = window.location.origin): string {
  return `${origin}/invite/${encodeURIComponent(code)}`;
}
