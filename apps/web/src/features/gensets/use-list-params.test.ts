import { describe, expect, it } from 'vitest';
import { readListParams, toRequest } from './use-list-params.ts';

describe('list parameters in the address', () => {
  it('fall back to the defaults for missing or bad values', () => {
    expect(readListParams(new URLSearchParams(''))).toEqual({
      status: 'all',
      search: '',
      page: 1,
      size: 20,
      sort: 'name',
      order: 'asc',
    });
    const bad = readListParams(new URLSearchParams('status=broken&page=-3&size=25&sort=secret&order=up'));
    expect(bad).toMatchObject({ status: 'all', page: 1, size: 20, sort: 'name', order: 'asc' });
  });

  it('keep valid choices and send only a non-empty search', () => {
    const params = readListParams(
      new URLSearchParams('status=alarm&q=%20T-7%20&page=3&size=50&sort=lastSeen&order=desc'),
    );
    expect(params).toMatchObject({ status: 'alarm', page: 3, size: 50, sort: 'lastSeen', order: 'desc' });
    expect(toRequest(params)).toEqual({
      status: 'alarm',
      search: 'T-7',
      page: 3,
      size: 50,
      sort: 'lastSeen',
      order: 'desc',
    });
    expect(toRequest({ ...params, search: '  ' })).not.toHaveProperty('search');
  });
});
