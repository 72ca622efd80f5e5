import type { QueryFunctionContext } from '@tanstack/react-query';

/**
 * The request options of a query that refreshes itself (a timer, a live nudge): its signal, and
 * quiet when the page already shows its data. Issue 59: a refresh that fails is not an alert; the
 * page keeps what it has and asks again at the next refresh, while a first load's failure is shown.
 * (A console restart met by the device page's 10-second metrics refresh raised "Something went
 * wrong" on a page no one had touched: CI of stop 82.)
 */
export function quietRefresh({ client, queryKey, signal }: Pick<QueryFunctionContext, 'client' | 'queryKey' | 'signal'>) {
  return { signal, quiet: client.getQueryData(queryKey) !== undefined };
}
