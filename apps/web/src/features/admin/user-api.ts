// Calls of the company's people (user:manage) and the roles to give them.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RoleListResponse,
  UserAddRequest,
  UserListRequest,
  UserListResponse,
  UserStatus,
  UserUpdateRequest,
} from '@genset/protocol';
import { get, post } from '../../api/request.ts';

export type UserFilters = Pick<UserListRequest, 'search' | 'departmentId' | 'roleId' | 'status' | 'type'>;

export const userKeys = {
  all: ['admin', 'users'] as const,
  list: (params: object) => ['admin', 'users', 'list', params] as const,
  roles: ['admin', 'users', 'roles'] as const,
};

export function useUsers(page: number, size: number, filters: UserFilters) {
  const params = { page, size, ...filters };
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => get<UserListResponse>('/user/list', { ...params }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The company's roles for the role choices (those who manage people manage roles too). */
export function useRoleOptions() {
  return useQuery({
    queryKey: userKeys.roles,
    queryFn: async ({ signal }) => {
      const res = await get<RoleListResponse>('/role/list', { page: 1, size: 50 }, { signal, silent: true });
      // a role beyond what the caller holds is shown but cannot be chosen (the server would refuse it)
      return res.list.map((r) => ({ value: r.id, label: r.name, disabled: !r.assignable }));
    },
    staleTime: 60_000,
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: userKeys.all }),
      client.invalidateQueries({ queryKey: ['admin', 'departments'] }),
    ]);
}

export function useSaveUser() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: UserAddRequest | UserUpdateRequest) =>
      'userId' in body
        ? post<null>('/user/update', body, { silent: true })
        : post<{ id: number }>('/user/add', body, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useUserStatus() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { userId: number; status: UserStatus }) => post<null>('/user/userStatus', body),
    onSuccess: invalidate,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { userId: number; password: string }) =>
      post<null>('/user/resetpassword', body, { silent: true }),
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (userId: number) => post<null>('/user/delete', { userId }),
    onSuccess: invalidate,
  });
}
