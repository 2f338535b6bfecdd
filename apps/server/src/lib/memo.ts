// Small in-memory caches for hot paths: results computed again and again from the same text, and maps kept in
// the order of last use.

/**
 * `compute` with its results kept by argument, for arguments that repeat (time-zone names, stored texts
 * parsed on every call). Past `max` kept results it starts afresh, so arguments nobody repeats cannot grow it
 * without end.
 */
export function memoize<K, V>(compute: (key: K) => V, max: number): (key: K) => V {
  const results = new Map<K, V>();
  return (key) => {
    if (results.has(key)) return results.get(key)!;
    const value = compute(key);
    if (results.size >= max) results.clear();
    results.set(key, value);
    return value;
  };
}

/** Puts `key` last in a map kept in the order of last use; past `max` entries the least recently used goes. */
export function keepRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number) {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
