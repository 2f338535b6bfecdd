// Cookie names the console keeps (spec 7): the session token, the company and the index template, and the
// sidebar state (spec 2).
import Cookies from 'js-cookie';

export const COOKIE = {
  token: 'Admin-Token',
  companyId: 'companyid',
  indexTemplate: 'indextemplate',
  sidebar: 'sidebarStatus',
} as const;

const options: Cookies.CookieAttributes = { sameSite: 'Lax', path: '/' };

export function readCookie(name: string): string | undefined {
  return Cookies.get(name) || undefined;
}

export function writeCookie(name: string, value: string): void {
  Cookies.set(name, value, options);
}

export function removeCookie(name: string): void {
  Cookies.remove(name, { path: '/' });
}
