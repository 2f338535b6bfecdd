// The history page's choice kept in the address: set, items, range (and the custom range's ends).
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { HISTORY_RANGES, MAX_HISTORY_ITEMS, type HistoryRange } from '@genset/protocol';
import type { RangeValue } from './range-select.tsx';

export interface HistoryParams extends RangeValue {
  token: string;
  items: string[];
}

function readNumber(value: string | null): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function useHistoryParams() {
  const [query, setQuery] = useSearchParams();
  const params = useMemo<HistoryParams>(() => {
    const range = query.get('range') as HistoryRange | null;
    return {
      token: query.get('token') ?? '',
      items: (query.get('items') ?? '')
        .split(',')
        .filter((k) => /^[a-z][a-z0-9_]*$/.test(k))
        .slice(0, MAX_HISTORY_ITEMS),
      range: range && HISTORY_RANGES.includes(range) ? range : 'week',
      start: readNumber(query.get('start')),
      end: readNumber(query.get('end')),
    };
  }, [query]);
  const update = useCallback(
    (change: Partial<HistoryParams>) => {
      const next = new URLSearchParams(query);
      const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
      if ('token' in change) set('token', change.token);
      if ('items' in change) set('items', change.items?.join(','));
      if ('range' in change) {
        set('range', change.range === 'week' ? undefined : change.range);
        set('start', change.range === 'custom' && change.start !== undefined ? String(change.start) : undefined);
        set('end', change.range === 'custom' && change.end !== undefined ? String(change.end) : undefined);
      }
      setQuery(next, { replace: true });
    },
    [query, setQuery],
  );
  return [params, update] as const;
}
