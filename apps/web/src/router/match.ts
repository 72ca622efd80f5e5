import type { ReactNode } from 'react';

/** A route of the console: a path (relative to its parent's), what it shows, and its child routes. */
export interface RouteObject {
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  element?: ReactNode;
  children?: RouteObject[];
  /** What the console keeps with a route (the roles a page needs, RouteGuard.tsx). */
  handle?: unknown;
}

export type Params = Record<string, string | undefined>;

export interface RouteMatch<R extends RouteObject = RouteObject> {
  /** The parameters of this route and those around it: one object for the whole match, as React Router has it. */
  params: Params;
  /** The part of the URL this route matched. */
  pathname: string;
  /** The same without what a trailing `*` matched: what its child routes and relative links start from. */
  pathnameBase: string;
  route: R;
}

interface PathMatch {
  params: Params;
  pathname: string;
  pathnameBase: string;
}

const joinPaths = (paths: string[]) => paths.join('/').replace(/\/\/+/g, '/');
const normalizePathname = (pathname: string) => pathname.replace(/\/+$/, '').replace(/^\/*/, '/');

/** A route path as a regular expression with its parameters' names (':id', an optional ':id?' or 'word?', a trailing '*'). */
function compilePath(path: string, caseSensitive: boolean, end: boolean): [RegExp, { name: string; optional: boolean }[]] {
  const params: { name: string; optional: boolean }[] = [];
  let source =
    '^' +
    path
      .replace(/\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)(\?)?/g, (_, name: string, optional?: string) => {
        params.push({ name, optional: optional != null });
        return optional ? '/?([^\\/]+)?' : '/([^\\/]+)';
      })
      .replace(/\/([\w-]+)\?(\/|$)/g, '(/$1)?$2');
  if (path.endsWith('*')) {
    params.push({ name: '*', optional: false });
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else if (end) {
    source += '\\/*$';
  } else if (path !== '' && path !== '/') {
    source += '(?:(?=\\/|$))';
  }
  return [new RegExp(source, caseSensitive ? undefined : 'i'), params];
}

/** Whether `pathname` matches a route's path, whole (`end`) or as its beginning. */
export function matchPath(pattern: { path: string; caseSensitive?: boolean; end?: boolean }, pathname: string): PathMatch | null {
  const [matcher, names] = compilePath(pattern.path, pattern.caseSensitive ?? false, pattern.end ?? true);
  const found = pathname.match(matcher);
  if (!found) return null;
  const matched = found[0];
  let pathnameBase = matched.replace(/(.)\/+$/, '$1');
  const groups = found.slice(1);
  const params: Params = {};
  names.forEach(({ name, optional }, i) => {
    const value = groups[i];
    if (name === '*') pathnameBase = matched.slice(0, matched.length - (value ?? '').length).replace(/(.)\/+$/, '$1');
    params[name] = optional && !value ? undefined : (value ?? '').replace(/%2F/g, '/');
  });
  return { params, pathname: matched, pathnameBase };
}

interface Branch {
  path: string;
  score: number;
  routes: { relativePath: string; caseSensitive: boolean; childIndex: number; route: RouteObject }[];
}

/**
 * React Router's ranking, so that the same URL shows the same page: a static segment outranks a
 * parameter, which outranks a `*`; an index route outranks its layout; equal scores keep their order.
 */
function score(path: string, index: boolean | undefined): number {
  const segments = path.split('/');
  let total = segments.length + (segments.includes('*') ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) if (segment !== '*') total += /^:[\w-]+$/.test(segment) ? 3 : segment === '' ? 1 : 10;
  return total;
}

function flatten(routes: RouteObject[], branches: Branch[] = [], parents: Branch['routes'] = [], parentPath = ''): Branch[] {
  routes.forEach((route, childIndex) => {
    let relativePath = route.path ?? '';
    if (relativePath.startsWith('/')) {
      // An absolute child path must lie within its parent's.
      if (!relativePath.startsWith(parentPath)) throw new Error(`The route path "${relativePath}" is not within its parent's, "${parentPath}".`);
      relativePath = relativePath.slice(parentPath.length);
    }
    const path = joinPaths([parentPath, relativePath]);
    const meta = [...parents, { relativePath, caseSensitive: route.caseSensitive === true, childIndex, route }];
    if (route.children?.length) flatten(route.children, branches, meta, path);
    // A route without a path (a layout) matches only through its children, unless it is an index route.
    if (route.path == null && !route.index) return;
    branches.push({ path, score: score(path, route.index), routes: meta });
  });
  return branches;
}

function rank(branches: Branch[]): Branch[] {
  const siblings = (a: Branch, b: Branch) => {
    const x = a.routes.map((r) => r.childIndex);
    const y = b.routes.map((r) => r.childIndex);
    // Siblings keep their order; otherwise neither goes first.
    return x.length === y.length && x.slice(0, -1).every((n, i) => n === y[i]) ? x[x.length - 1]! - y[y.length - 1]! : 0;
  };
  return branches.sort((a, b) => (a.score !== b.score ? b.score - a.score : siblings(a, b)));
}

/** A path as matched: each segment decoded, an encoded '/' kept as '%2F' so it stays within its segment. */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

function matchBranch(branch: Branch, pathname: string): RouteMatch[] | null {
  const params: Params = {};
  let matchedPathname = '/';
  const matches: RouteMatch[] = [];
  for (const [i, meta] of branch.routes.entries()) {
    const end = i === branch.routes.length - 1;
    const remaining = matchedPathname === '/' ? pathname : pathname.slice(matchedPathname.length) || '/';
    const found = matchPath({ path: meta.relativePath, caseSensitive: meta.caseSensitive, end }, remaining);
    if (!found) return null;
    Object.assign(params, found.params);
    matches.push({
      params,
      pathname: joinPaths([matchedPathname, found.pathname]),
      pathnameBase: normalizePathname(joinPaths([matchedPathname, found.pathnameBase])),
      route: meta.route,
    });
    if (found.pathnameBase !== '/') matchedPathname = joinPaths([matchedPathname, found.pathnameBase]);
  }
  return matches;
}

/** The routes a path shows, outermost first, or null when none matches. */
export function matchRoutes<R extends RouteObject>(routes: R[], location: string | { pathname: string }): RouteMatch<R>[] | null {
  const pathname = decodePath(typeof location === 'string' ? location : location.pathname);
  for (const branch of rank(flatten(routes))) {
    const matches = matchBranch(branch, pathname);
    if (matches) return matches as RouteMatch<R>[];
  }
  return null;
}

export { joinPaths };
