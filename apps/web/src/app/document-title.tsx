// The browser tab shows the company serving this host name (spec 2).
import { useEffect } from 'react';
import { useCompanyName } from '../api/company.ts';

export function DocumentTitle() {
  const { data } = useCompanyName();
  const title = data?.title || data?.name;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  return null;
}
