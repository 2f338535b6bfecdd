// Who is signed in: the token (cookie, or in embedded mode a session opened with the one-time `code` of the
// address, kept in memory only), the company, and what the
// server said about the user after sign-in (info, permissions, company, menu routes).
import { create } from 'zustand';
import type { CompanyInfo, LoginResponse, RouteEntry, UserInfoResponse } from '@genset/protocol';
import { COOKIE, readCookie, removeCookie, writeCookie } from './cookies.ts';

export const EMBEDDED_COMPANY_ID = '1';

export type UserInfo = UserInfoResponse['info'];

export interface SessionState {
  token: string | undefined;
  companyId: string | undefined;
  indexTemplate: string | undefined;
  /** iframe=1: the console runs inside another page; only the main area shows. */
  embedded: boolean;
  user: UserInfo | null;
  permissions: string[];
  company: CompanyInfo | null;
  routes: RouteEntry[];
  signIn(login: LoginResponse): void;
  setProfile(profile: UserInfoResponse, routes?: RouteEntry[]): void;
  resetToken(): void;
}

interface StartupQuery {
  embedded: boolean;
  /** The one-time code an embedded page is opened with (exchanged for a session at start). */
  code: string | undefined;
}

export function readStartupQuery(search: string): StartupQuery {
  const params = new URLSearchParams(search);
  const embedded = params.get('iframe') === '1';
  return { embedded, code: (embedded && params.get('code')) || undefined };
}

function initialState(): Pick<SessionState, 'token' | 'companyId' | 'indexTemplate' | 'embedded'> {
  const { embedded } = readStartupQuery(typeof window === 'undefined' ? '' : window.location.search);
  if (embedded) {
    // Embedded pages open a session of their own with the code their host page hands them; it is kept in
    // memory, not written to the cookie, so that the host's own session in this browser stays untouched.
    return { embedded, token: undefined, companyId: EMBEDDED_COMPANY_ID, indexTemplate: undefined };
  }
  return {
    embedded,
    token: readCookie(COOKIE.token),
    companyId: readCookie(COOKIE.companyId),
    indexTemplate: readCookie(COOKIE.indexTemplate),
  };
}

export const useSession = create<SessionState>()((set, get) => ({
  ...initialState(),
  user: null,
  permissions: [],
  company: null,
  routes: [],
  signIn(login) {
    const companyId = String(login.companyid);
    if (!get().embedded) {
      writeCookie(COOKIE.token, login.utoken);
      writeCookie(COOKIE.companyId, companyId);
      writeCookie(COOKIE.indexTemplate, login.indextemplate);
    }
    set({
      token: login.utoken,
      companyId: get().embedded ? EMBEDDED_COMPANY_ID : companyId,
      indexTemplate: login.indextemplate,
      user: null,
      permissions: [],
      company: null,
      routes: [],
    });
  },
  setProfile(profile, routes) {
    set({
      user: profile.info,
      permissions: profile.permissions,
      company: profile.companyinfo,
      ...(routes ? { routes } : {}),
    });
  },
  resetToken() {
    removeCookie(COOKIE.token);
    set({ token: undefined, user: null, permissions: [], company: null, routes: [] });
  },
}));
