// The query every top-layout page carries (spec 2): the set token, a maintenance token, embedding flags.
import { useSearchParams } from 'react-router';

export const TOP_TABS = ['realtime', 'realdata', 'baojing', 'maintain', 'guiji'] as const;
export type TopTab = (typeof TOP_TABS)[number];

// (an embedded page's session lives in memory: the address carries no session token)
const CARRIED = ['token', 'mtoken', 'iframe'] as const;

export function useTopQuery() {
  const [params] = useSearchParams();
  const carried = new URLSearchParams();
  for (const key of CARRIED) {
    const value = params.get(key);
    if (value) carried.set(key, value);
  }
  const query = carried.toString();
  return {
    token: params.get('token') ?? '',
    mtoken: params.get('mtoken') ?? '',
    /** Tabs visible with this query: maintenance is hidden for maintenance-token visitors. */
    tabs: TOP_TABS.filter((tab) => !(tab === 'maintain' && params.get('mtoken'))),
    hrefFor: (tab: TopTab) => `/top/${tab}${query ? `?${query}` : ''}`,
  };
}
