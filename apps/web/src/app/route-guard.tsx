// The route guard of spec 4: signed-in users skip /login; the session (user info and menu) is loaded once
// before any private page; visitors without a token only reach the public pages.
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App as AntApp } from 'antd';
import { EmptyUserInfoError, fetchSession } from '../api/session.ts';
import { useSession } from '../stores/session.ts';
import { FullPageLoading } from '../components/full-page-loading.tsx';
import { AppRoutes } from './app-routes.tsx';
import { loginPathFor, PUBLIC_PATHS, safeRedirect } from './public-routes.ts';

function SessionLoader() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const token = useSession((s) => s.token);
  const { data, error } = useQuery({
    queryKey: ['session', 'load', { token }],
    queryFn: ({ signal }) => fetchSession(signal),
    gcTime: 0,
  });

  useEffect(() => {
    if (data) useSession.getState().setProfile(data.profile, data.routes);
  }, [data]);

  useEffect(() => {
    if (!error) return;
    useSession.getState().resetToken();
    const text =
      error instanceof EmptyUserInfoError ? t('errors.verificationFailed') : error.message || t('errors.hasError');
    void message.error({ content: text, duration: 3 });
    navigate(loginPathFor(location.pathname + location.search), { replace: true });
  }, [error, t, message, navigate, location.pathname, location.search]);

  return <FullPageLoading />;
}

export function RouteGuard() {
  const location = useLocation();
  const token = useSession((s) => s.token);
  const loaded = useSession((s) => s.user !== null);
  const { pathname, search } = location;

  if (token) {
    // after signing in, the sign-in page's redirect query is honoured
    if (pathname === '/login')
      return <Navigate to={safeRedirect(new URLSearchParams(search).get('redirect'))} replace />;
    if (pathname === '/') return <Navigate to="/index" replace />;
    if (!loaded) return <SessionLoader />;
    return <AppRoutes />;
  }
  if (PUBLIC_PATHS.has(pathname)) return <AppRoutes />;
  if (pathname === '/') return <Navigate to="/login" replace />;
  return <Navigate to={loginPathFor(pathname + search)} replace />;
}
