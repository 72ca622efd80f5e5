import { RealmRole } from '@fleetlink/contract/roles';
import { landingPageAt } from '@fleetlink/contract/web-paths';
import { deviceUrl, searchUrl } from '../../features/devices/device-urls';
import { searchPageOf } from '../../features/devices/search/search-page-params';
import { missingRoles } from '../guards/route-access';

/**
 * The first question of the landing pages that have one (LANDING_PAGES, by path): the address their
 * route's `prefetch` asks, and the roles it is asked for (first-question.test.ts holds the routes to
 * the same). Asked by the bootstrap the moment it holds a token, the answer travels while the
 * console's code downloads, instead of after it (issue 68).
 */
const FIRST_QUESTIONS: Record<string, { roles: readonly string[]; url: (params: Record<string, string>, search: URLSearchParams) => string }> = {
  '/devices/search': { roles: [RealmRole.User], url: (_params, search) => searchUrl(searchPageOf(search).query) },
  '/devices/:id/*': { roles: [RealmRole.User], url: (params) => deviceUrl(params.id!) },
};

/**
 * How long an answer asked ahead waits to be taken: the console takes it as it starts. One older than
 * this is stale, and asked again.
 */
export const FIRST_ANSWER_KEPT_MS = 10_000;

/** The answer asked ahead, taken once by the API client when it asks the same (api-client.ts). */
export interface FirstAnswer {
  take(url: string): Promise<Response> | undefined;
}

export const NO_FIRST_ANSWER: FirstAnswer = { take: () => undefined };

/**
 * Asks the first question of the page at `location` for someone holding `roles`, with their token,
 * as the console's API client would (its bearer token, JSON accepted); nothing for another page.
 */
export function askFirstQuestion(
  location: Pick<Location, 'pathname' | 'search'>,
  token: string,
  roles: readonly string[],
  doFetch: typeof fetch = (input, init) => fetch(input, init),
): FirstAnswer {
  const landing = landingPageAt(location.pathname);
  const question = landing && FIRST_QUESTIONS[landing.page.path];
  if (!question || missingRoles(question.roles, roles).length > 0) return NO_FIRST_ANSWER;
  const url = question.url(landing.params, new URLSearchParams(location.search));
  const askedAt = Date.now();
  let response: Promise<Response> | undefined = doFetch(url, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
  // A failure is told by the page that takes it, as its own request's would be; none is unhandled meanwhile.
  response.catch(() => undefined);
  return {
    take(wanted) {
      if (wanted !== url || !response || Date.now() - askedAt > FIRST_ANSWER_KEPT_MS) return undefined;
      const taken = response;
      response = undefined;
      return taken;
    },
  };
}
