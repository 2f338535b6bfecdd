// Paths anyone may open without signing in (spec 2, 4).
export const PUBLIC_PATHS = new Set([
  '/login',
  '/register',
  '/forget',
  '/xieyis',
  '/yinsi',
  '/404',
  '/test',
  '/showvideo',
]);

/** A set's maintenance link (/top/maintain?mtoken=…): opened without signing in, read-only. */
export function isMaintenanceLink(pathname: string, search: string): boolean {
  return pathname === '/top/maintain' && Boolean(new URLSearchParams(search).get('mtoken'));
}

/** An invitation link (/invite/<code>): its page shows the invitation signed in or not. */
export function isInviteLink(pathname: string): boolean {
  return /^\/invite\/[A-Za-z0-9_-]{1,40}$/.test(pathname);
}

/** Only same-site paths are followed after sign-in; anything else goes Home. */
export function safeRedirect(target: string | null | undefined, fallback = '/index'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (target === '/' || target.startsWith('/login')) return fallback;
  return target;
}

/** A public page's path that keeps the page to come back to (between sign-in and registration). */
export function withRedirect(path: string, redirect: string | null): string {
  return redirect ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;
}

export function loginPathFor(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}
