// Loads the signed-in user's info and menu once; on failure the token goes, the reason is shown and the user
// is sent to sign in (spec 4). Without a network (the installed console opened offline) the session is kept and
// loaded again once the network is back.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App as AntApp } from 'antd';
import { EmptyUserInfoError, fetchSession } from '../api/session.ts';
import { TransportError } from '../api/request.ts';
import { useSession } from '../stores/session.ts';
import { FullPageLoading } from '../components/full-page-loading.tsx';
import { loginPathFor } from './public-routes.ts';
import { loadSignedInLocales } from '../i18n/index.ts';

export function SessionLoader() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const token = useSession((s) => s.token);
  const { data, error, refetch } = useQuery({
    queryKey: ['session', 'load', { token }],
    queryFn: async ({ signal }) => (await Promise.all([fetchSession(signal), loadSignedInLocales()]))[0],
    gcTime: 0,
  });

  useEffect(() => {
    if (data) useSession.getState().setProfile(data.profile, data.routes);
  }, [data]);

  useEffect(() => {
    if (!error) return;
    if (error instanceof TransportError && !navigator.onLine) {
      const again = () => void refetch();
      window.addEventListener('online', again, { once: true });
      return () => window.removeEventListener('online', again);
    }
    useSession.getState().resetToken();
    const text =
      error instanceof EmptyUserInfoError ? t('errors.verificationFailed') : error.message || t('errors.hasError');
    void message.error({ content: text, duration: 3 });
    navigate(loginPathFor(location.pathname + location.search), { replace: true });
  }, [error, t, message, navigate, location.pathname, location.search, refetch]);

  return <FullPageLoading />;
}
