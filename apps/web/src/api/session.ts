// Loading and ending the signed-in session: user info, menu routes, logout.
import type { RouteEntry, UserInfoResponse } from '@genset/protocol';
import { useSession } from '../stores/session.ts';
import { useTabs } from '../stores/tabs.ts';
import { get, post } from './request.ts';

export interface LoadedSession {
  profile: UserInfoResponse;
  routes: RouteEntry[];
}

/** Both calls of the route guard; failures are reported by the guard itself. */
export async function fetchSession(signal?: AbortSignal): Promise<LoadedSession> {
  const routesCall = get<RouteEntry[] | null>('/getRoute', undefined, { silent: true, signal });
  // with a temporary password only the user info is answered: the guard shows the password form, not the menu
  routesCall.catch(() => undefined);
  const profile = await get<UserInfoResponse | null>('/user/info', undefined, { silent: true, signal });
  if (!profile || !profile.info) throw new EmptyUserInfoError();
  if (profile.info.mustChangePassword) return { profile, routes: [] };
  const routes = await routesCall;
  return { profile, routes: Array.isArray(routes) ? routes : [] };
}

export class EmptyUserInfoError extends Error {
  constructor() {
    super('Empty user info');
    this.name = 'EmptyUserInfoError';
  }
}

/** Reloads user info after the user changed it (nickname, message settings). */
export async function refreshProfile(): Promise<UserInfoResponse> {
  const profile = await get<UserInfoResponse>('/user/info');
  useSession.getState().setProfile(profile);
  return profile;
}

/** Ends the session on the server (best effort) and here. */
export async function logout(): Promise<void> {
  try {
    await post('/logout', {}, { silent: true });
  } catch {
    // the token is dropped here either way
  }
  useSession.getState().resetToken();
  useTabs.getState().reset();
}
