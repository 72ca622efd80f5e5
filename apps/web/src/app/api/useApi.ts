import { useContext } from 'react';
import { ApiContext } from './ApiContext';

/** The API client of the signed-in session (see ApiProvider). */
export function useApi() {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi must be used inside <ApiProvider>');
  return api;
}
