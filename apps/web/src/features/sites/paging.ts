// The pagination of a station page's table: the spec's page sizes, and back to page 1 when the size changes.
import { PAGE_SIZES } from '@genset/protocol';

export type PageSize = (typeof PAGE_SIZES)[number];

export function tablePagination(
  page: number,
  size: PageSize,
  total: number,
  setPage: (page: number) => void,
  setSize: (size: PageSize) => void,
) {
  return {
    current: page,
    pageSize: size,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    onChange: (p: number, s: number) => {
      if (s !== size) {
        setSize(s as PageSize);
        setPage(1);
      } else setPage(p);
    },
  };
}
