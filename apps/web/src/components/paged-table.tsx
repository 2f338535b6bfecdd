// A table of one page of a server-paged list, or the error state with a retry when the page could not be read. On a
// phone the columns share the screen's width (their text wraps) instead of scrolling sideways past the actions.
import { Grid, Table, type TableColumnsType } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from './error-state.tsx';
import { useScrollFocus } from './scroll-focus.ts';
import type { usePaging } from './use-paging.ts';

export function PagedTable<T extends { id: number }>(props: {
  query: UseQueryResult<{ list: T[]; total: number }>;
  paging: ReturnType<typeof usePaging>;
  columns: TableColumnsType<T>;
  testId: string;
  /** What the table lists, for the scrolling box a keyboard user reaches when the table is wider than the page. */
  label: string;
}) {
  const { query, paging } = props;
  const screens = Grid.useBreakpoint();
  const box = useScrollFocus<HTMLDivElement>(props.label);
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()} />;
  return (
    <div ref={box}>
      <Table<T>
        rowKey="id"
        size="middle"
        loading={query.isFetching}
        columns={props.columns}
        dataSource={query.data?.list ?? []}
        pagination={paging.pagination(query.data?.total ?? 0)}
        scroll={{ x: screens.sm === false ? undefined : 'max-content' }}
        data-testid={props.testId}
      />
    </div>
  );
}
