import {
  Children,
  createContext,
  Fragment,
  isValidElement,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type CSSProperties,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';
import { createBrowserHistory, createMemoryHistory, createPath, parsePath, type History, type Location, type Path, type To } from './history';
import { joinPaths, matchRoutes, type Params, type RouteMatch, type RouteObject } from './match';

/**
 * The console's router: the part of React Router's declarative API the console uses (issue 68:
 * React Router was 14 kB of the device list's first load, compressed), with its rules for which
 * route a URL shows (match.ts), its history state and its transitions. Paths are absolute, or
 * relative to the route they are used in.
 */

interface NavigationContext {
  history: History;
  location: Location;
}

interface RouteContext {
  outlet: ReactNode;
  matches: RouteMatch[];
}

const Navigation = createContext<NavigationContext | null>(null);
const CurrentRoute = createContext<RouteContext>({ outlet: null, matches: [] });
/** What a layout gives the page in its Outlet: a context of its own, as the page's route has its own CurrentRoute. */
const OutletValue = createContext<unknown>(undefined);

function useNavigation(): NavigationContext {
  const navigation = useContext(Navigation);
  if (!navigation) throw new Error('This needs a router (BrowserRouter) around it.');
  return navigation;
}

function Router({ history, children }: { history: History; children: ReactNode }) {
  const [location, setLocation] = useState(history.location);
  // As React Router does: a navigation is a transition, so the page shown stays until the next one
  // has its code, instead of a loader flashing in between.
  useLayoutEffect(() => {
    const stop = history.listen((next) => startTransition(() => setLocation(next)));
    // A move made before this listened (by a page's own layout effect) is not missed.
    setLocation(history.location);
    return stop;
  }, [history]);
  const value = useMemo(() => ({ history, location }), [history, location]);
  return <Navigation.Provider value={value}>{children}</Navigation.Provider>;
}

export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(createBrowserHistory);
  return <Router history={history}>{children}</Router>;
}

export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: string[]; children: ReactNode }) {
  const [history] = useState(() => createMemoryHistory(initialEntries[initialEntries.length - 1]));
  return <Router history={history}>{children}</Router>;
}

export const useLocation = (): Location => useNavigation().location;

/** `to` as a path: absolute, or relative to `base` ('..' goes up a segment); a query or fragment alone keeps the current page. */
function resolveTo(to: To, base: string, current: string): Path {
  const { pathname, search = '', hash = '' } = typeof to === 'string' ? parsePath(to) : to;
  if (!pathname) return { pathname: current, search, hash };
  if (pathname.startsWith('/')) return { pathname: pathname.replace(/\/\/+/g, '/'), search, hash };
  const segments = base.split('/').filter(Boolean);
  for (const segment of pathname.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return { pathname: `/${segments.join('/')}`, search, hash };
}

/** Where relative paths start: the innermost route's matched path. */
function useRouteBase(): string {
  const { matches } = useContext(CurrentRoute);
  return matches[matches.length - 1]?.pathnameBase ?? '/';
}

export function useResolvedPath(to: To): Path {
  const base = useRouteBase();
  const { pathname } = useLocation();
  return useMemo(() => resolveTo(to, base, pathname), [to, base, pathname]);
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = (to: To | number, options?: NavigateOptions) => void;

export function useNavigate(): NavigateFunction {
  const { history, location } = useNavigation();
  const base = useRouteBase();
  // A new function when the page changes, as React Router's: effects that depend on it run again.
  return useCallback(
    (to: To | number, options: NavigateOptions = {}) => {
      if (typeof to === 'number') return history.go(to);
      const path = resolveTo(to, base, history.location.pathname);
      history[options.replace ? 'replace' : 'push'](path, options.state ?? null);
    },
    [history, base, location.pathname],
  );
}

export function useParams<T extends Params = Params>(): Readonly<Partial<T>> {
  const { matches } = useContext(CurrentRoute);
  return (matches[matches.length - 1]?.params ?? {}) as Partial<T>;
}

type SearchInit = string | URLSearchParams | Record<string, string | string[]> | [string, string][];

const toSearchParams = (init: SearchInit) =>
  new URLSearchParams(
    typeof init === 'string' || Array.isArray(init) || init instanceof URLSearchParams
      ? init
      : Object.entries(init).flatMap(([key, value]) => (Array.isArray(value) ? value.map((v): [string, string] => [key, v]) : [[key, value] as [string, string]])),
  );

export function useSearchParams(): [URLSearchParams, (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => void] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) =>
      navigate(`?${toSearchParams(typeof next === 'function' ? next(params) : next).toString()}`, options),
    [navigate, params],
  );
  return [params, setParams];
}

/** The child route's page, in a layout route's element. */
export function Outlet({ context }: { context?: unknown }): ReactNode {
  const { outlet } = useContext(CurrentRoute);
  if (!outlet) return null;
  return <OutletValue.Provider value={context}>{outlet}</OutletValue.Provider>;
}

/** What the layout route above gave its Outlet. */
export function useOutletContext<T>(): T {
  return useContext(OutletValue) as T;
}

/** The page `routes` show for the URL, within the route this is used in (the part of the URL it has not matched yet). */
export function useRoutes(routes: RouteObject[]): ReactNode {
  const parent = useContext(CurrentRoute);
  const { pathname } = useLocation();
  const parentMatch = parent.matches[parent.matches.length - 1];
  const parentBase = parentMatch?.pathnameBase ?? '/';
  const remaining = parentBase === '/' ? pathname : pathname.slice(parentBase.length) || '/';
  const matches = matchRoutes(routes, remaining);
  if (!matches) return null;
  const rendered = matches.map((match) => ({
    ...match,
    params: { ...parentMatch?.params, ...match.params },
    pathname: joinPaths([parentBase, match.pathname]),
    pathnameBase: match.pathnameBase === '/' ? parentBase : joinPaths([parentBase, match.pathnameBase]),
  }));
  return rendered.reduceRight<ReactNode>(
    (outlet, match, i) => (
      <CurrentRoute.Provider value={{ outlet, matches: [...parent.matches, ...rendered.slice(0, i + 1)] }}>
        {match.route.element === undefined ? outlet : match.route.element}
      </CurrentRoute.Provider>
    ),
    null,
  );
}

export interface RouteProps {
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** A route in `<Routes>`: read by Routes, never rendered itself. */
export function Route(_props: RouteProps): ReactNode {
  throw new Error('A <Route> is only ever used as a child of <Routes>.');
}

function routesOf(children: ReactNode): RouteObject[] {
  const routes: RouteObject[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement(child)) return;
    const element = child as ReactElement<RouteProps>;
    if (element.type === Fragment) {
      routes.push(...routesOf(element.props.children));
      return;
    }
    const { path, index, caseSensitive, element: shown, children: nested } = element.props;
    routes.push({ path, index, caseSensitive, element: shown, children: nested ? routesOf(nested) : undefined });
  });
  return routes;
}

export function Routes({ children }: { children: ReactNode }): ReactNode {
  return useRoutes(routesOf(children));
}

/** Goes to `to` as soon as it is shown. */
export function Navigate({ to, replace, state }: { to: To; replace?: boolean; state?: unknown }): null {
  const navigate = useNavigate();
  const target = JSON.stringify(to);
  useEffect(() => navigate(JSON.parse(target) as To, { replace, state }), [navigate, target, replace, state]);
  return null;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
  /** An ordinary link: the browser loads the page. */
  reloadDocument?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

const ABSOLUTE_URL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** An anchor with the page's address; a plain left click goes there without loading the page again. */
export function Link({ to, replace, state, reloadDocument, onClick, target, ...anchor }: LinkProps) {
  const external = typeof to === 'string' && ABSOLUTE_URL.test(to);
  const path = useResolvedPath(external ? '/' : to);
  const { history, location } = useNavigation();
  const href = external ? (to as string) : createPath(path);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || external || reloadDocument) return;
    if (event.button !== 0 || (target && target !== '_self') || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // A link to the page already shown replaces it, as in React Router: Back does not lead to it again.
    const again = createPath(location) === href;
    history[(replace ?? again) ? 'replace' : 'push'](path, state ?? null);
  };
  return <a {...anchor} href={href} target={target} onClick={handleClick} />;
}

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'style' | 'children'> {
  /** Active only on this very path, not on the pages below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string | undefined);
  style?: CSSProperties | ((state: { isActive: boolean }) => CSSProperties | undefined);
  children?: ReactNode | ((state: { isActive: boolean }) => ReactNode);
}

/** A link that says when it leads to the page shown (`aria-current="page"`, the `active` class). */
export function NavLink({ end, className, style, children, ...link }: NavLinkProps) {
  const { pathname: target } = useResolvedPath(link.to);
  const { pathname } = useLocation();
  const here = pathname.toLowerCase();
  const there = target.toLowerCase();
  const isActive = here === there || (!end && there !== '/' && here.startsWith(there) && here.charAt(there.length) === '/');
  const classes = typeof className === 'function' ? className({ isActive }) : [className, isActive ? 'active' : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <Link {...link} aria-current={isActive ? 'page' : undefined} className={classes} style={typeof style === 'function' ? style({ isActive }) : style}>
      {typeof children === 'function' ? children({ isActive }) : children}
    </Link>
  );
}

export { matchRoutes, type Location, type Params, type RouteMatch, type RouteObject, type To };
