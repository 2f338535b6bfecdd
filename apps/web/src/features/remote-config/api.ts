// Calls of remote configuration (spec 7 "Monitoring", spec 8): reading and writing a controller's settings.
// Both are exempt from the error toast: the page reads their raw envelope, failures included.
import { useQuery } from '@tanstack/react-query';
import type {
  ConfigReadResponse,
  ConfigWriteRequest,
  ConfigWriteResponse,
  ConfigWriteResult,
  Envelope,
  SetInfo,
} from '@genset/protocol';
import { post } from '../../api/request.ts';

/** What a refused or failed write carries besides its message. */
export interface ConfigWriteFailure {
  state?: 'error';
  requestId?: string | null;
  /** Values refused before anything was sent: key → reason. */
  fields?: Record<string, string>;
  /** Per-parameter outcome when something was sent. */
  results?: ConfigWriteResult[];
}

export function readConfig(token: string, menu: string | undefined, signal?: AbortSignal) {
  return post<Envelope<ConfigReadResponse | null>>(
    '/configdata/readconfignew',
    menu === undefined ? { token } : { token, menu },
    { signal },
  );
}

export function writeConfig(request: ConfigWriteRequest) {
  return post<Envelope<ConfigWriteResponse | ConfigWriteFailure | null>>('/configdata/writeconfignew', request);
}

export const remoteConfigKeys = {
  read: (token: string, menu: string | undefined) => ['remoteConfig', 'read', { token, menu: menu ?? null }] as const,
};

/** The set's name, whether its module is online and the user's rights on it; shown above the settings. */
export function useSetStatus(token: string) {
  return useQuery({
    queryKey: ['devices', 'getstatus', { token }],
    queryFn: ({ signal }) => post<SetInfo>('/devicedata/getstatus', { token }, { signal, silent: true }),
    enabled: Boolean(token),
  });
}
