// /redirect/<path>: leaving a page and coming straight back remounts it, which is how a tab is refreshed.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FullPageLoading } from '../../components/full-page-loading.tsx';

export function RedirectPage() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = pathname.replace(/^\/redirect/, '') || '/index';
    navigate(target + search, { replace: true });
  }, [pathname, search, navigate]);
  return <FullPageLoading />;
}
