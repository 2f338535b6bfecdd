// Page and page size of a table paged by the server (spec 9: 10/20/30/50, default 20): the state and the
// antd pagination that goes with it (a table's, or a list of cards'). Changing the page size goes back to the
// first page.
import { useState } from 'react';
import type { ListProps, TablePaginationConfig } from 'antd';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@genset/protocol';

export type PageSize = (typeof PAGE_SIZES)[number];

export function usePaging() {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  return {
    page,
    size,
    setPage,
    /** The table's pagination for `total` rows; `extra` adds or overrides options (showTotal, size …). */
    pagination: (total: number, extra: TablePaginationConfig = {}): TablePaginationConfig => ({
      current: page,
      pageSize: size,
      total,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZES.map(String),
      onChange: (p, s) => {
        setPage(s !== size ? 1 : p);
        setSize(s as PageSize);
      },
      ...extra,
    }),
    /** A list of cards' pagination (on a phone) for `total` items: small, centred, only with more than one page. */
    listPagination: (total: number | undefined): ListProps<unknown>['pagination'] =>
      total !== undefined && total > size
        ? { current: page, pageSize: size, total, onChange: setPage, align: 'center', size: 'small' }
        : false,
  };
}
