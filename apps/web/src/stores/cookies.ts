// Cookie names the console keeps (spec 7): the session token, the company and the index template, and the
// sidebar state (spec 2).
import Cookies from 'js-cookie';

export const COOKIE = {
  token: 'Admin-Token',
  companyId: 'companyid',
  indexTemplate: 'indextemplate',
  sidebar: 'sidebarStatus',
} as const;

// The console's script reads the token (it signs every call with it), so the cookie cannot be HttpOnly; over
// HTTPS it is Secure, never sent over plain HTTP.
const secure = () => typeof window !== 'undefined' && window.location.protocol === 'https:';

function options(): Cookies.CookieAttributes {
  return { sameSite: 'Lax', path: '/', ...(secure() ? { secure: true } : {}) };
}

export function readCookie(name: string): string | undefined {
  return Cookies.get(name) || undefined;
}

export function writeCookie(name: string, value: string): void {
  Cookies.set(name, value, options());
}

export function removeCookie(name: string): void {
  Cookies.remove(name, { path: '/' });
}
