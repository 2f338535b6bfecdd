// The list's filter, search, sort and page kept in the address (so a tab, a refresh or a shared link shows
// the same page); unknown or bad values fall back to the defaults of the contract.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  DEFAULT_PAGE_SIZE,
  GENSET_SORTS,
  GENSET_STATUS_FILTERS,
  PAGE_SIZES,
  type GensetListRequest,
  type GensetSort,
  type GensetStatusFilter,
} from '@genset/protocol';

export interface ListParams {
  status: GensetStatusFilter;
  search: string;
  page: number;
  size: (typeof PAGE_SIZES)[number];
  sort: GensetSort;
  order: 'asc' | 'desc';
}

export function readListParams(query: URLSearchParams): ListParams {
  const status = query.get('status') as GensetStatusFilter | null;
  const size = Number(query.get('size'));
  const page = Number(query.get('page'));
  const sort = query.get('sort') as GensetSort | null;
  return {
    status: status && GENSET_STATUS_FILTERS.includes(status) ? status : 'all',
    search: (query.get('q') ?? '').slice(0, 100),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? (size as ListParams['size']) : DEFAULT_PAGE_SIZE,
    sort: sort && GENSET_SORTS.includes(sort) ? sort : 'name',
    order: query.get('order') === 'desc' ? 'desc' : 'asc',
  };
}

export function toRequest(p: ListParams): GensetListRequest {
  return {
    status: p.status,
    page: p.page,
    size: p.size,
    sort: p.sort,
    order: p.order,
    ...(p.search.trim() ? { search: p.search.trim() } : {}),
  };
}

export function useListParams() {
  const [query, setQuery] = useSearchParams();
  const params = useMemo(() => readListParams(query), [query]);
  const update = useCallback(
    (change: Partial<ListParams>) => {
      const next = { ...readListParams(query), ...change };
      // A new filter or search starts again at the first page.
      if (change.status !== undefined || change.search !== undefined || change.size !== undefined) {
        if (change.page === undefined) next.page = 1;
      }
      const out = new URLSearchParams(query);
      const put = (key: string, value: string, fallback: string) =>
        value === fallback ? out.delete(key) : out.set(key, value);
      put('status', next.status, 'all');
      put('q', next.search, '');
      put('page', String(next.page), '1');
      put('size', String(next.size), String(DEFAULT_PAGE_SIZE));
      put('sort', next.sort, 'name');
      put('order', next.order, 'asc');
      setQuery(out, { replace: true });
    },
    [query, setQuery],
  );
  return [params, update] as const;
}
