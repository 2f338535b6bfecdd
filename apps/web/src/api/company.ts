// The public company calls: the company serving this host name (title, name, logo) before and after sign-in.
import { useQuery } from '@tanstack/react-query';
import type { CompanyPublic } from '@genset/protocol';
import { get } from './request.ts';

export function currentHostname(): string {
  return window.location.hostname;
}

export function useCompanyName() {
  const hostname = currentHostname();
  return useQuery({
    queryKey: ['company', 'getName', { hostname }],
    queryFn: ({ signal }) => get<CompanyPublic>('/company/getName', { hostname }, { silent: true, signal }),
    staleTime: Infinity,
  });
}

export function useCompanyLogo() {
  const hostname = currentHostname();
  return useQuery({
    queryKey: ['company', 'getlogo', { hostname }],
    queryFn: ({ signal }) => get<CompanyPublic>('/company/getlogo', { hostname }, { silent: true, signal }),
    staleTime: Infinity,
  });
}
