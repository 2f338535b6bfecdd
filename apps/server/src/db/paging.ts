// A page of a list as the API answers it: the total, and the rows of the page (read only when the page lies
// within the total: a page past the end is empty without a query).

/** The count a `select(countAll().as('n'))` query answers, as a number on every database. */
export async function countOf(query: {
  executeTakeFirst(): Promise<{ n: string | number | bigint } | undefined>;
}): Promise<number> {
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

/** Page `page` (from 1) of `size` rows out of `total`, read by `read(limit, offset)`. */
export async function pageOf<R>(
  total: number,
  page: number,
  size: number,
  read: (limit: number, offset: number) => Promise<R[]>,
): Promise<{ rows: R[]; total: number }> {
  const offset = (page - 1) * size;
  return { rows: offset >= total ? [] : await read(size, offset), total };
}
