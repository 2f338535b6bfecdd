// Calls of firmware upgrades (/ota/*): the company's firmware files (upload with progress, list, delete), their
// assignment to sets, the upgrades of a file or of a set, and cancelling. Each `ota` push of the realtime
// channel (an upgrade moved) refreshes the lists that show it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { OtaAssignRequest, OtaAssignResponse, OtaFileListResponse, OtaJobListResponse } from '@genset/protocol';
import { get, post } from '../../api/request.ts';
import { uploadForm } from '../../api/upload.ts';
import { watchSets } from '../../realtime/client.ts';
import { useRealtimeStore } from '../../realtime/store.ts';

export const otaKeys = {
  all: ['ota'] as const,
  files: ['ota', 'files'] as const,
  jobsOfFile: (fileId: number) => ['ota', 'jobs', { fileId }] as const,
  jobsOfSet: (token: string) => ['ota', 'jobs', { token }] as const,
};

export function useFirmwareFiles() {
  return useQuery({
    queryKey: otaKeys.files,
    queryFn: ({ signal }) => get<OtaFileListResponse>('/ota/file/list', undefined, { signal }),
  });
}

export function useFileUpgrades(fileId: number) {
  return useQuery({
    queryKey: otaKeys.jobsOfFile(fileId),
    queryFn: ({ signal }) => get<OtaJobListResponse>('/ota/job/list', { fileId: String(fileId) }, { signal }),
  });
}

export function useSetUpgrades(token: string) {
  return useQuery({
    queryKey: otaKeys.jobsOfSet(token),
    queryFn: ({ signal }) => get<OtaJobListResponse>('/ota/job/list', { token }, { signal }),
  });
}

/** Keeps the realtime channel open while mounted; every upgrade that moves refreshes the upgrade lists. */
export function useUpgradePushes() {
  const client = useQueryClient();
  const pushes = useRealtimeStore((s) => s.ota.pushes);
  useEffect(() => watchSets({ reconnect: true }), []);
  useEffect(() => {
    if (pushes > 0) void client.invalidateQueries({ queryKey: otaKeys.all });
  }, [pushes, client]);
}

export interface FirmwareFormValues {
  name: string;
  version: string;
  target: 'module' | 'controller';
  model: string;
  sha256?: string;
  file: File;
}

export function useUploadFirmware(onProgress: (share: number) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: FirmwareFormValues) => {
      const form = new FormData();
      form.append('name', values.name);
      form.append('version', values.version);
      form.append('target', values.target);
      form.append('model', values.model);
      if (values.sha256) form.append('sha256', values.sha256);
      form.append('file', values.file, values.file.name);
      return uploadForm<{ id: number }>('/ota/file/upload', form, { onProgress });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: otaKeys.all }),
  });
}

export function useDeleteFirmware() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<null>('/ota/file/delete', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: otaKeys.all }),
  });
}

export function useAssignFirmware() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: OtaAssignRequest) => post<OtaAssignResponse>('/ota/job/assign', request),
    onSuccess: () => client.invalidateQueries({ queryKey: otaKeys.all }),
  });
}

export function useCancelUpgrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<null>('/ota/job/cancel', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: otaKeys.all }),
  });
}
