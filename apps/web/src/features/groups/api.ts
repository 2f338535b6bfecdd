// Calls of parallel and multi-machine groups (spec 7 "Genset": getNav, getZuItem, savedevxml) and the sets a
// user may put in a group.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GensetListResponse,
  GroupCommandJob,
  GroupCommandRequest,
  GroupItemResponse,
  GroupNavResponse,
  GroupSaveRequest,
} from '@genset/protocol';
import { post } from '../../api/request.ts';

export const groupLink = (token: string) => `/genset/groups/${encodeURIComponent(token)}`;

export const groupKeys = {
  all: ['groups'] as const,
  nav: ['groups', 'getNav', {}] as const,
  item: (token: string) => ['groups', 'getZuItem', { token }] as const,
  sets: (search: string) => ['groups', 'sets', { search }] as const,
  command: (token: string) => ['groups', 'groupCommandJob', { token }] as const,
};

/** How often a running group command is asked after: each set's outcome shows within a second. */
const COMMAND_POLL_MS = 1000;

/**
 * The latest command given to the group (null: none), followed while the server runs it set by set; it goes on
 * on the server whether or not this page stays open.
 */
export function useGroupCommandJob(token: string) {
  return useQuery({
    queryKey: groupKeys.command(token),
    queryFn: ({ signal }) => post<GroupCommandJob | null>('/genset/groupCommandJob', { token }, { signal }),
    enabled: Boolean(token),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? COMMAND_POLL_MS : false),
  });
}

/** Gives the command to every set of the group; the server answers the job as it starts (errors unshown). */
export function useStartGroupCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GroupCommandRequest) => post<GroupCommandJob>('/genset/groupCommand', body, { silent: true }),
    onSuccess: (job) => client.setQueryData(groupKeys.command(job.group), job),
  });
}

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
