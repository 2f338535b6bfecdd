// Calls of the message centre (the bell and its page) and of the company's webhooks. The unread count is
// fetched once and then kept by the realtime channel's `notice` pushes; it is polled slowly in case the
// channel is down.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type {
  MessageChannelName,
  MessageLogResponse,
  MessageStatusResponse,
  MessageTestRequest,
  MessageTestResponse,
  NoticeListResponse,
  WebhookDeliveryItem,
  WebhookItem,
  WebhookSaveRequest,
} from '@genset/protocol';
import { get, post } from '../../api/request.ts';
import { useRealtimeStore } from '../../realtime/store.ts';

export const noticeKeys = {
  all: ['notices'] as const,
  unread: ['notices', 'unread'] as const,
  list: (page: number, size: number, unread: boolean) => ['notices', 'list', { page, size, unread }] as const,
  webhooks: ['webhooks'] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
};

/** The unread count (kept by the bell's `useNoticePushes`). */
export function useUnreadNotices() {
  const query = useQuery({
    queryKey: noticeKeys.unread,
    queryFn: ({ signal }) => get<{ unread: number }>('/notice/unread', undefined, { signal }),
    refetchInterval: 60_000,
  });
  return query.data?.unread ?? 0;
}

/** A push from the server refreshes the unread count and every open list of notices (the bell, once). */
export function useNoticePushes() {
  const client = useQueryClient();
  const pushed = useRealtimeStore((s) => s.notices);
  useEffect(() => {
    if (pushed.unread === null) return;
    client.setQueryData(noticeKeys.unread, { unread: pushed.unread });
    void client.invalidateQueries({ queryKey: ['notices', 'list'] });
  }, [pushed, client]);
}

export function useNotices(page: number, size: number, unread: boolean, enabled = true) {
  return useQuery({
    queryKey: noticeKeys.list(page, size, unread),
    queryFn: ({ signal }) => post<NoticeListResponse>('/notice/list', { page, size, unread }, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

function useRefresh() {
  const client = useQueryClient();
  return (result: { unread: number }) => {
    client.setQueryData(noticeKeys.unread, result);
    void client.invalidateQueries({ queryKey: ['notices', 'list'] });
  };
}

export function useMarkNotices() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (v: { ids: number[]; read: boolean }) => post<{ unread: number }>('/notice/read', v),
    onSuccess: refresh,
  });
}

export function useMarkAllNotices() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => post<{ unread: number }>('/notice/readAll', {}),
    onSuccess: refresh,
  });
}

export function useWebhooks() {
  return useQuery({
    queryKey: noticeKeys.webhooks,
    queryFn: ({ signal }) => post<{ list: WebhookItem[] }>('/webhook/list', {}, { signal }),
    refetchInterval: 30_000,
  });
}

export function useSaveWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: WebhookSaveRequest) => post<{ id: number }>('/webhook/save', v, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: noticeKeys.webhooks }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<{ id: number }>('/webhook/delete', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: noticeKeys.webhooks }),
  });
}

export function useWebhookDeliveries(id: number | null) {
  return useQuery({
    queryKey: noticeKeys.deliveries(id ?? 0),
    queryFn: ({ signal }) => post<{ list: WebhookDeliveryItem[] }>('/webhook/deliveries', { id }, { signal }),
    enabled: id !== null,
    refetchInterval: 10_000,
  });
}

export const messageKeys = {
  status: ['messages', 'status'] as const,
  log: (page: number, size: number, channel: MessageChannelName | undefined) =>
    ['messages', 'log', { page, size, channel }] as const,
};

/** How SMS, e-mail and push are served on this installation. */
export function useMessageStatus() {
  return useQuery({
    queryKey: messageKeys.status,
    queryFn: ({ signal }) => get<MessageStatusResponse>('/messages/status', undefined, { signal }),
  });
}

/** The company's delivery log, newest first. */
export function useMessageLog(page: number, size: number, channel: MessageChannelName | undefined) {
  return useQuery({
    queryKey: messageKeys.log(page, size, channel),
    queryFn: ({ signal }) =>
      post<MessageLogResponse>('/messages/log', { page, size, ...(channel ? { channel } : {}) }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

/** Sends a test message; the log shows it at once. */
export function useSendTestMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: MessageTestRequest) => post<MessageTestResponse>('/messages/test', v, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['messages', 'log'] }),
  });
}
