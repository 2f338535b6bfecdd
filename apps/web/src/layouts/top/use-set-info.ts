// The set shown in the top bar, refreshed every 10 s (spec 9). Errors show in the status line rather than
// as a toast every 10 s.
import { useQuery } from '@tanstack/react-query';
import type { SetInfo } from '@genset/protocol';
import { post } from '../../api/request.ts';

export const SET_INFO_REFRESH_MS = 10_000;

export function useSetInfo(token: string) {
  return useQuery({
    queryKey: ['devices', 'getstatus', { token }],
    queryFn: ({ signal }) => post<SetInfo>('/devicedata/getstatus', { token }, { signal, silent: true }),
    enabled: Boolean(token),
    refetchInterval: SET_INFO_REFRESH_MS,
  });
}
