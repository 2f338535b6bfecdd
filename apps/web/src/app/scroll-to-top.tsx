// History-mode navigation starts each page at the top (spec 2).
import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

export function ScrollToTop() {
  const { pathname, search } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
    document.querySelectorAll('[data-scroll-container]').forEach((el) => el.scrollTo(0, 0));
  }, [pathname, search]);
  return null;
}
