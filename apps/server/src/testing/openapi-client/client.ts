// A small client of the console written as an API user would write one: its types are generated from
// the OpenAPI document (openapi-typescript, into ./api-types.ts next to this file when the test runs),
// its calls made with openapi-fetch. openapi-client.test.ts typechecks it against them and runs it.
// This folder is outside the project's typecheck (tsconfig.json), because ./api-types.ts exists only there.
import createClient from 'openapi-fetch';
import type { components, paths } from './api-types';

export type ApiError = components['schemas']['ApiError'];

export function fleetlinkClient(baseUrl: string, token: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  /** Every error of the API is `{ code, message }`, so one line reads them all. */
  const failed = (error: ApiError) => ({ code: error.code, message: error.message, fields: error.fields ?? {} });

  return {
    async health(): Promise<string> {
      const { data, error } = await client.GET('/api/health', { headers: { authorization: null } });
      return data ? data.status : failed(error).message;
    },

    async myOrganizationIds(): Promise<string[]> {
      const { data, error } = await client.GET('/api/organizations');
      if (error) throw new Error(failed(error).message);
      return data.map((o) => o.id);
    },

    async registerDevice(organization: string, name: string) {
      const { data, error } = await client.POST('/api/device', { body: { organization, name, branch: 'PRODUCTION', tags: ['openapi'] } });
      return error ? { error: failed(error) } : { device: data };
    },

    async device(id: string) {
      const { data, error } = await client.GET('/api/device/{id}', { params: { path: { id } } });
      return error ? { error: failed(error) } : { device: data };
    },

    async search(search: string, status?: 'online' | 'offline') {
      const { data, error } = await client.GET('/api/devices', { params: { query: { search, status } } });
      if (error) throw new Error(failed(error).message);
      return data;
    },
  };
}
