// Calls of where a set is and has been: its fence and latest fix, drawing the fence, and a range's track.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FenceResponse, FenceShape, TrackResponse } from '@genset/protocol';
import { post } from '../../api/request.ts';

export const trackKeys = {
  fence: (token: string) => ['tracks', 'fence', token] as const,
  track: (token: string, start: number, end: number) => ['tracks', 'track', token, start, end] as const,
};

export function useFence(token: string) {
  return useQuery({
    queryKey: trackKeys.fence(token),
    queryFn: ({ signal }) => post<FenceResponse>('/genset/fence', { token }, { signal }),
    enabled: Boolean(token),
    // the latest fix moves with the set
    refetchInterval: 15_000,
  });
}

export function useSaveFence(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fence: FenceShape | null) =>
      post<{ fence: FenceShape | null }>('/genset/updateFence', { token, fence }),
    onSuccess: () => client.invalidateQueries({ queryKey: trackKeys.fence(token) }),
  });
}

/** The track of the range, at every fix (the player moves along it). */
export function useTrack(token: string, range: { start: number; end: number } | null) {
  return useQuery({
    queryKey: trackKeys.track(token, range?.start ?? 0, range?.end ?? 0),
    queryFn: ({ signal }) => post<TrackResponse>('/genset/guiji', { token, ...range }, { signal }),
    enabled: Boolean(token && range),
  });
}
