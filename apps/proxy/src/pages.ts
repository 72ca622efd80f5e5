import { STATUS_CODES } from 'node:http';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The proxy's own answer as a small HTML page: what went wrong, in words, with the host named as text. */
export function errorPage(status: number, message: string): { status: number; headers: Record<string, string>; body: string } {
  const title = `${status} ${STATUS_CODES[status] ?? ''}`.trim();
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family:system-ui,sans-serif;margin:3rem"><h1>${escape(title)}</h1><p>${escape(message)}</p><p style="color:#777">Fleetlink tunnel proxy</p></body></html>`;
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    body,
  };
}

export const pageTexts = {
  noHost: 'The request does not say which host it is for (no Host header).',
  twoHosts: 'The request names its host more than once.',
  twoAuthorizations: 'The request carries its credentials more than once.',
  tooManyFailures: 'Too many wrong usernames or passwords from your address: try again in a minute.',
  unknownHost: (host: string) => `There is no tunnel at ${host}.`,
  down: (host: string) => `The tunnel at ${host} is not connected: its device is offline or the tunnel was disconnected.`,
  forbidden: 'Your address is not allowed to use this tunnel.',
  unauthorized: 'This tunnel needs a username and password.',
  unreachable: (host: string) => `The device behind ${host} did not answer: the service it forwards to may not be running.`,
};
