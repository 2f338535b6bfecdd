// Calls of a set's cameras and their live video: the camera list, add, edit and remove (managers), and the
// viewing lease the player takes, renews and gives back.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CameraAddRequest,
  CameraListResponse,
  CameraUpdateRequest,
  VideoRenewResponse,
  VideoWatchResponse,
} from '@genset/protocol';
import { post } from '../../api/request.ts';

export const videoKeys = {
  all: ['video'] as const,
  list: (token: string) => ['video', 'list', { token }] as const,
};

/** The set's cameras; failures (no rights, unknown set) are shown by the page, not as toasts. */
export function useCameras(token: string) {
  return useQuery({
    queryKey: videoKeys.list(token),
    queryFn: ({ signal }) => post<CameraListResponse>('/video/list', { token }, { signal, silent: true }),
    enabled: Boolean(token),
    retry: false,
  });
}

function useInvalidateCameras() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: videoKeys.all });
}

/** Form errors go beside the fields, so these calls are silent too. */
export function useAddCamera() {
  const invalidate = useInvalidateCameras();
  return useMutation({
    mutationFn: (values: CameraAddRequest) => post<{ id: number }>('/video/add', values, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useUpdateCamera() {
  const invalidate = useInvalidateCameras();
  return useMutation({
    mutationFn: (values: CameraUpdateRequest) => post<null>('/video/update', values, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteCamera() {
  const invalidate = useInvalidateCameras();
  return useMutation({
    mutationFn: (values: { token: string; id: number }) => post<null>('/video/del', values),
    onSuccess: invalidate,
  });
}

export function watchCamera(token: string, id: number, signal: AbortSignal) {
  return post<VideoWatchResponse>('/video/watch', { token, id }, { signal, silent: true });
}

export function renewLease(lease: string) {
  return post<VideoRenewResponse>('/video/renew', { lease }, { silent: true });
}

export function leaveLease(lease: string) {
  return post<null>('/video/leave', { lease }, { silent: true });
}

/** The address a closing page gives its lease back to (a beacon cannot sign a call). */
export function beaconUrl(lease: string) {
  return `/yewu/video/live/${encodeURIComponent(lease)}/leave`;
}
