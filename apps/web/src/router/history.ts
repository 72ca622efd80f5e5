/** Where the console is: the URL's path, query and fragment, and what the page that navigated left for the next one. */
export interface Path {
  pathname: string;
  search: string;
  hash: string;
}

export interface Location extends Path {
  state: unknown;
  /** New for every navigation (a page title is announced again on each, PageTitle.tsx). */
  key: string;
}

export type To = string | Partial<Path>;

/** The list of places visited, as the router moves through it. */
export interface History {
  readonly location: Location;
  push(path: Path, state?: unknown): void;
  replace(path: Path, state?: unknown): void;
  go(delta: number): void;
  /** Called after every move; returns how to stop. */
  listen(listener: (location: Location) => void): () => void;
}

export const createPath = ({ pathname = '/', search = '', hash = '' }: Partial<Path>): string =>
  pathname + (search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '') + (hash && hash !== '#' ? (hash.startsWith('#') ? hash : `#${hash}`) : '');

/** '/a?b#c' as its parts; a part not given is left out. */
export function parsePath(path: string): Partial<Path> {
  const parts: Partial<Path> = {};
  const hashAt = path.indexOf('#');
  if (hashAt >= 0) {
    parts.hash = path.slice(hashAt);
    path = path.slice(0, hashAt);
  }
  const searchAt = path.indexOf('?');
  if (searchAt >= 0) {
    parts.search = path.slice(searchAt);
    path = path.slice(0, searchAt);
  }
  if (path) parts.pathname = path;
  return parts;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

/** The browser's own history (pushState, popstate); the state is kept as React Router kept it ({ usr, key, idx }), so a reload finds it. */
export function createBrowserHistory(): History {
  const listeners = new Set<(location: Location) => void>();
  const read = (): Location => {
    const { pathname, search, hash } = window.location;
    const saved = (window.history.state ?? {}) as { usr?: unknown; key?: string };
    return { pathname, search, hash, state: saved.usr ?? null, key: saved.key ?? 'default' };
  };
  let location = read();
  let index = ((window.history.state ?? {}) as { idx?: number }).idx ?? 0;
  if (window.history.state?.idx == null) window.history.replaceState({ ...window.history.state, idx: index }, '');
  const notify = () => {
    location = read();
    for (const listener of [...listeners]) listener(location);
  };
  const move = (how: 'push' | 'replace', path: Path, state: unknown) => {
    if (how === 'push') index += 1;
    const entry = { usr: state, key: newKey(), idx: index };
    const url = createPath(path);
    try {
      window.history[how === 'push' ? 'pushState' : 'replaceState'](entry, '', url);
    } catch {
      // Safari limits pushState calls, and a state that cannot be cloned is refused: load the page instead.
      window.location[how === 'push' ? 'assign' : 'replace'](url);
      return;
    }
    notify();
  };
  window.addEventListener('popstate', () => {
    index = ((window.history.state ?? {}) as { idx?: number }).idx ?? 0;
    notify();
  });
  return {
    get location() {
      return location;
    },
    push: (path, state) => move('push', path, state),
    replace: (path, state) => move('replace', path, state),
    go: (delta) => window.history.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A history held in memory, starting at `initialPath` (for a component shown outside the console, as in a test page). */
export function createMemoryHistory(initialPath = '/'): History {
  const listeners = new Set<(location: Location) => void>();
  const at = (path: Partial<Path>, state: unknown = null): Location => ({ pathname: '/', search: '', hash: '', ...path, state, key: newKey() });
  const entries = [at(parsePath(initialPath))];
  let index = 0;
  const notify = () => {
    for (const listener of [...listeners]) listener(entries[index]!);
  };
  return {
    get location() {
      return entries[index]!;
    },
    push(path, state) {
      entries.splice(++index, entries.length, at(path, state));
      notify();
    },
    replace(path, state) {
      entries[index] = at(path, state);
      notify();
    },
    go(delta) {
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      notify();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
