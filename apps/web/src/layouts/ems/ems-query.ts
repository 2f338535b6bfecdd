// The query every station page carries (spec 2): the station token and a maintenance token.
import { useSearchParams } from 'react-router';

export function useEmsQuery() {
  const [params] = useSearchParams();
  const carried = new URLSearchParams();
  for (const key of ['token', 'mtoken'] as const) {
    const value = params.get(key);
    if (value) carried.set(key, value);
  }
  const query = carried.toString();
  return { token: params.get('token') ?? '', hrefFor: (path: string) => `${path}${query ? `?${query}` : ''}` };
}
