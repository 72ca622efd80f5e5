/**
 * Sets a key in a map kept to at most `max` entries, the oldest going first: the proxy's caches
 * (passed credentials, failures per address, known host names) hold what strangers send, so none
 * may grow without bound.
 */
export function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
