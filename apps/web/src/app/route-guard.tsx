// The route guard of spec 4: signed-in users skip /login; the session (user info and menu) is loaded once
// before any private page; visitors without a token only reach the public pages.
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../stores/session.ts';
import { AppRoutes } from './app-routes.tsx';
import { SessionLoader } from './session-loader.tsx';
import { UserPasswordRequired } from '../features/admin/user-password-required.tsx';
import { isInviteLink, isMaintenanceLink, loginPathFor, PUBLIC_PATHS, safeRedirect } from './public-routes.ts';

export function RouteGuard() {
  const location = useLocation();
  const token = useSession((s) => s.token);
  const loaded = useSession((s) => s.user !== null);
  const mustChangePassword = useSession((s) => s.user?.mustChangePassword === true);
  const { pathname, search } = location;

  // a maintenance link shows the same read-only page signed in or not
  if (isMaintenanceLink(pathname, search)) return <AppRoutes />;
  if (token) {
    // after signing in, the sign-in page's redirect query is honoured
    if (pathname === '/login')
      return <Navigate to={safeRedirect(new URLSearchParams(search).get('redirect'))} replace />;
    if (pathname === '/') return <Navigate to="/index" replace />;
    if (!loaded) return <SessionLoader />;
    // an administrator's temporary password is changed before any page
    if (mustChangePassword) return <UserPasswordRequired />;
    return <AppRoutes />;
  }
  if (PUBLIC_PATHS.has(pathname) || isInviteLink(pathname)) return <AppRoutes />;
  if (pathname === '/') return <Navigate to="/login" replace />;
  return <Navigate to={loginPathFor(pathname + search)} replace />;
}
