import type * as Http from 'node:http';

/**
 * node:http's or node:https's `request` for a URL, loaded when first asked for, through
 * process.getBuiltinModule() (as commands/execute.ts takes node:child_process). Not
 * `import('node:http')`: since Node 22 an ES import of node:http builds its namespace from every
 * export, and reading the lazy `WebSocket` one loads undici, with http2, tls, zlib and assert
 * (nodejs/node#59686), some 20 MB an idle agent then carries for good (80 MB where 58 on Node 20).
 * getBuiltinModule(), like require(), reads only what it is asked for. http-request.test.ts holds it so.
 */
export function requestFor(url: URL): typeof Http.request {
  return (url.protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http')).request;
}
