// Loads the signed-in user's info and menu once; on failure the token goes, the reason is shown and the user
// is sent to sign in (spec 4).
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App as AntApp } from 'antd';
import { EmptyUserInfoError, fetchSession } from '../api/session.ts';
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
  const { data, error } = useQuery({
    queryKey: ['session', 'load', { token }],
    queryFn: async ({ signal }) => (await Promise.all([fetchSession(signal), loadSignedInLocales()]))[0],
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
