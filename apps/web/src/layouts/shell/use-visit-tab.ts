// Every page shown in the shell gets a tab.
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTabs } from '../../stores/tabs.ts';
import { useRouteMeta } from './use-route-meta.ts';

export function useVisitTab() {
  const { pathname, search } = useLocation();
  const meta = useRouteMeta();
  useEffect(() => {
    if (pathname.startsWith('/redirect') || !meta) return;
    useTabs.getState().visit({
      path: pathname,
      fullPath: pathname + search,
      ...(meta.title ? { title: meta.title } : {}),
      ...(meta.titleKey && !meta.title ? { titleKey: meta.titleKey } : {}),
    });
  }, [pathname, search, meta]);
}
