// A set's commands: the list its protocol offers, and sending one (the set's control flow, spec 5 and 8),
// shared by the set's live pages and the group page.
import { useQuery } from '@tanstack/react-query';
import type { Envelope } from '@genset/protocol';
import { post, request } from './request.ts';

export interface SetCommand {
  key: string;
  title: string;
  risky: boolean;
}

export interface CommandOutcome {
  state: 'ok' | 'error';
  requestId: string | null;
  info: string;
}

export const commandKeys = {
  list: (token: string) => ['devices', 'commands', { token }] as const,
};

export function useCommands(token: string, enabled = true) {
  return useQuery({
    queryKey: commandKeys.list(token),
    queryFn: ({ signal }) => post<SetCommand[]>('/devicedata/commands', { token }, { signal }),
    enabled: Boolean(token) && enabled,
    staleTime: 5 * 60_000,
  });
}

/** The raw answer of a command (spec 8: no toast from the request layer; the caller shows the outcome). */
export function sendAction(token: string, action: string, password?: string): Promise<Envelope<CommandOutcome>> {
  return request<Envelope<CommandOutcome>>('/devicedata/sendaction', {
    method: 'POST',
    data: password === undefined ? { token, action } : { token, action, password },
  });
}
