import { READ_ONLY_METHODS, type ApiOperation } from '@fleetlink/contract';

type Json = Record<string, any>;

/** The keys of a path item that are operations (the others are its parameters, summary, …). */
export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** Methods whose requests fastify reads a body of (JSON only, 1 MiB), whether or not the operation wants one. */
const BODY_METHODS: readonly string[] = ['put', 'post', 'delete', 'patch'];

/** What each error answer means, in the document's words. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid: `fields` names each field with its message.',
  401: 'No credentials, or credentials that are not valid (expired token, wrong password).',
  403: 'The caller may not do this: a role they lack, or an object of an organization they do not manage.',
  404: 'The object does not exist, or the caller is not a member of its organization.',
  409: 'The object is not in a state that allows this (the message says why).',
  410: 'The one-time link was used already or has expired.',
  411: 'The body was sent without its Content-Length.',
  413: 'The body is larger than this operation takes.',
  415: 'The body is not of the type this operation takes (JSON, or multipart/form-data for an upload).',
  429: 'Too many attempts, or an API token past its requests a minute: the message says when to try again.',
  502: 'The device refused, or answered with something unexpected.',
  503: 'A message server or the device is not reachable right now.',
  504: 'The device did not answer in time.',
};

export const API_ERROR_REF = '#/components/schemas/ApiError';

/**
 * Completes the document fastify-swagger generated from the routes: each operation's id from the
 * contract's route table, and its error answers as they apply (from its shape, the `security` the
 * transform spelled out included, and from the statuses its route declares), all with the
 * `{ code, message }` body. Also makes
 * OpenAPI 3.0's `nullable` valid where the zod conversion left it without a `type`.
 */
export function completeDocument(doc: Json, operations: ApiOperation[]): Json {
  const byRoute = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of OPERATION_METHODS) {
      const op = item[method];
      if (!op) continue;
      const route = byRoute.get(`${method.toUpperCase()} ${path}`);
      if (route) op.operationId = route.operationId;
      for (const status of errorStatuses(method, op, route)) {
        op.responses[status] ??= { description: ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: { $ref: API_ERROR_REF } } } };
      }
    }
  }
  typeNullables(doc);
  return doc;
}

/** The schemes a person calls with: a sign-in's access token, a personal API token. */
const PERSON_SCHEMES = ['bearer', 'apiToken'];
/** What a read-only API token may call, in lower case as the document's methods are. */
const READ_METHODS = READ_ONLY_METHODS.map((m) => m.toLowerCase());

/** The error statuses of an operation: those its inputs and security imply, then those its route declares. */
function errorStatuses(method: string, op: Json, route: ApiOperation | undefined): number[] {
  const params: Json[] = op.parameters ?? [];
  const secured = op.security.length > 0;
  const bearerOnly = op.security.every((s: Json) => Object.keys(s).every((name) => PERSON_SCHEMES.includes(name)));
  const statuses = new Set<number>([
    // Every operation checks its query string (control characters), even one that takes no parameter.
    400,
    ...(secured ? [401] : []),
    // A bearer operation with a role to hold, or one a read-only API token may not call; an agent's
    // or proxy's credentials reach only their own objects.
    ...(secured && (!bearerOnly || op['x-roles']?.length || !READ_METHODS.includes(method)) ? [403] : []),
    ...(params.some((p) => p.in === 'path') && !route?.oneTimeLink ? [404] : []),
    // A body too large or not JSON; a one-time link's upload (an agent's file) takes any bytes.
    ...(op.requestBody || (BODY_METHODS.includes(method) && !route?.oneTimeLink) ? [413, 415] : []),
    ...(route?.errors ?? []),
    // An API token's rate limit (API_TOKEN_RATE_LIMIT).
    ...(secured && bearerOnly ? [429] : []),
  ]);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * OpenAPI 3.0 reads `nullable` only beside a `type`: where zod's conversion wrote it over an
 * `anyOf` whose branches share one type, that type goes beside it; otherwise a null branch is added
 * (or, with no branches, nothing says which type it would be beside, and it goes).
 */
function typeNullables(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(typeNullables);
  const schema = node as Json;
  if (schema.nullable === true && schema.type === undefined && !schema.$ref) {
    const branches: Json[] | undefined = schema.anyOf ?? schema.oneOf;
    const types = new Set(branches?.map((b) => b.type));
    if (branches?.length && types.size === 1 && !types.has(undefined)) schema.type = [...types][0];
    else {
      delete schema.nullable;
      branches?.push({ type: 'string', nullable: true, enum: [null] });
    }
  }
  for (const value of Object.values(schema)) typeNullables(value);
}
