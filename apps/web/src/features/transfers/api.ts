// Calls of handing sets over (spec 7 "Genset": /genset/transferdevice and the transfer lists): the pending and
// done records of the user, handing a set over, and the receiver's accept or reject and the sender's revoke.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TransferBox,
  TransferDeviceRequest,
  TransferListRequest,
  TransferListResponse,
  TransferStatus,
} from '@genset/protocol';
import { post } from '../../api/request.ts';

export const transferKeys = {
  all: ['transfers'] as const,
  list: (params: TransferListRequest) => ['transfers', 'list', params] as const,
};

export function useTransfers(box: TransferBox, page: number, size: TransferListRequest['size']) {
  const params: TransferListRequest = { box, page, size };
  return useQuery({
    queryKey: transferKeys.list(params),
    queryFn: ({ signal }) => post<TransferListResponse>('/genset/transfer/list', params, { signal }),
    placeholderData: keepPreviousData,
    // what the other side does shows without a reload
    refetchInterval: 30_000,
  });
}

/** After a step the records, and the sets' lists and pages (a set may have moved), may be stale. */
function useInvalidate() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: transferKeys.all }),
      client.invalidateQueries({ queryKey: ['gensets'] }),
      client.invalidateQueries({ queryKey: ['groups'] }),
    ]);
}

export function useHandOver() {
  const invalidate = useInvalidate();
  return useMutation({
    // the dialog shows what was refused beside the field it concerns
    mutationFn: (body: TransferDeviceRequest) => post<{ id: number }>('/genset/transferdevice', body, { silent: true }),
    onSuccess: invalidate,
  });
}

export type TransferAction = 'accept' | 'reject' | 'revoke';

export function useTransferAction() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ action, id }: { action: TransferAction; id: number }) =>
      post<{ id: number; status: TransferStatus }>(`/genset/transfer/${action}`, { id }),
    onSuccess: invalidate,
  });
}
