// Loading and ending the signed-in session: user info, menu routes, logout.
import type { EmbedCodeResponse, LoginResponse, RouteEntry, UserInfoResponse } from '@genset/protocol';
import { readStartupQuery, useSession } from '../stores/session.ts';
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

/**
 * An embedded page (iframe=1&code=…) exchanges its one-time code for a session before the first render, and takes
 * the code out of the address (it works once). A refused code leaves the page signed out: it asks to sign in.
 */
export async function openEmbeddedSession(): Promise<void> {
  const { embedded, code } = readStartupQuery(window.location.search);
  if (!embedded || !code) return;
  const url = new URL(window.location.href);
  url.searchParams.delete('code');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  try {
    useSession.getState().signIn(await post<LoginResponse>('/user/embedLogin', { code }));
  } catch {
    // the request layer has said why
  }
}

/** A one-time code that opens this account's console in another embedded page (valid a minute, used once). */
export async function embedCode(): Promise<string> {
  return (await post<EmbedCodeResponse>('/user/embedCode', {})).code;
}
