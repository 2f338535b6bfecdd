// Calls of company administration (the platform administrator) and of the companies a person belongs to.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanyAddRequest, CompanyListResponse, CompanyUpdateRequest, UserCompanyItem } from '@genset/protocol';
import { get, post } from '../../api/request.ts';
import { uploadForm } from '../../api/upload.ts';

export const companyKeys = {
  all: ['admin', 'companies'] as const,
  list: (params: { page: number; size: number; search: string }) => ['admin', 'companies', 'list', params] as const,
  mine: ['admin', 'companies', 'mine'] as const,
};

export function useCompanies(params: { page: number; size: number; search: string }) {
  return useQuery({
    queryKey: companyKeys.list(params),
    queryFn: ({ signal }) =>
      get<CompanyListResponse>(
        '/company/list',
        { page: params.page, size: params.size, search: params.search || undefined },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useSaveCompany() {
  const client = useQueryClient();
  return useMutation({
    // the drawer shows refusals beside their fields
    mutationFn: (body: CompanyAddRequest | CompanyUpdateRequest) =>
      'id' in body
        ? post<null>('/company/update', body, { silent: true })
        : post<{ id: number }>('/company/add', body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: companyKeys.all }),
  });
}

export function useDeleteCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<null>('/company/del', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: companyKeys.all }),
  });
}

export function uploadLogo(file: File): Promise<{ logo: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadForm<{ logo: string }>('/company/uploadLogo', form);
}

/** The companies the signed-in person belongs to (the switcher shows when there are several). */
export function useMyCompanies(enabled: boolean) {
  return useQuery({
    queryKey: companyKeys.mine,
    queryFn: ({ signal }) => get<UserCompanyItem[]>('/company/getUserCompanyList', undefined, { signal, silent: true }),
    enabled,
    staleTime: 60_000,
  });
}
