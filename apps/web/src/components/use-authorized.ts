// Permission checks of spec 6 against the signed-in user's list.
import { useCallback } from 'react';
import { hasAnyPermission } from '@genset/protocol';
import { useSession } from '../stores/session.ts';

/** Returns a check: true when the user holds '*:*' or any of the required permissions. Empty requirement throws. */
export function useAuthorized(): (required: readonly string[]) => boolean {
  const permissions = useSession((s) => s.permissions);
  return useCallback((required: readonly string[]) => hasAnyPermission(permissions, required), [permissions]);
}
