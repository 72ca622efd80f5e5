/** A Web Storage (localStorage's interface) held in memory, for the tests that run outside a browser. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  const storage = {
    get length() {
      return items.size;
    },
    key: (index: number) => [...items.keys()][index] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
  // Object.keys(localStorage) lists its keys in a browser; this proxy does the same.
  return new Proxy(storage, {
    ownKeys: () => [...items.keys()],
    getOwnPropertyDescriptor: (_target, key) => (typeof key === 'string' && items.has(key) ? { enumerable: true, configurable: true, value: items.get(key) } : undefined),
  }) as Storage;
}
