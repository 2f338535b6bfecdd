// Calls of parallel and multi-machine groups (spec 7 "Genset": getNav, getZuItem, savedevxml) and the sets a
// user may put in a group.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GensetListResponse, GroupItemResponse, GroupNavResponse, GroupSaveRequest } from '@genset/protocol';
import { post } from '../../api/request.ts';

export const groupLink = (token: string) => `/genset/groups/${encodeURIComponent(token)}`;

export const groupKeys = {
  all: ['groups'] as const,
  nav: ['groups', 'getNav', {}] as const,
  item: (token: string) => ['groups', 'getZuItem', { token }] as const,
  sets: (search: string) => ['groups', 'sets', { search }] as const,
};

export function useGroupNav() {
  return useQuery({
    queryKey: groupKeys.nav,
    queryFn: ({ signal }) => post<GroupNavResponse>('/genset/getNav', {}, { signal }),
    // members' status changes come with the page's visits; the list of groups rarely changes
    refetchInterval: 60_000,
  });
}

export function useGroupItem(token: string) {
  return useQuery({
    queryKey: groupKeys.item(token),
    queryFn: ({ signal }) => post<GroupItemResponse>('/genset/getZuItem', { token }, { signal }),
    enabled: Boolean(token),
    // the pushes keep the values live; this picks up a changed membership and sets that went quiet
    refetchInterval: 60_000,
  });
}

/** The caller's sets that could go into a group (those they manage), by name, narrowed by a search. */
export function useManageableSets(search: string) {
  return useQuery({
    queryKey: groupKeys.sets(search),
    queryFn: async ({ signal }) => {
      const page = await post<GensetListResponse>(
        '/genset/mylist',
        { page: 1, size: 50, ...(search ? { search } : {}) },
        { signal },
      );
      return page.list.filter((set) => set.rights === 'manage');
    },
    placeholderData: keepPreviousData,
  });
}

export function useSaveGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GroupSaveRequest) => post<{ token: string; created: boolean }>('/genset/savedevxml', body),
    onSuccess: () => client.invalidateQueries({ queryKey: groupKeys.all }),
  });
}

export function useDeleteGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => post<{ deleted: number }>('/genset/delZu', { token }),
    onSuccess: () => client.invalidateQueries({ queryKey: groupKeys.all }),
  });
}
