import { formPost } from '../../idp/password-login.js';
import { PASSWORD_PAGE_PATH } from './accounts.service.js';

/** The password link in a mail as it arrived: quoted-printable's soft breaks joined and its escapes decoded. */
export function passwordLinkIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const link = new RegExp(`https?://[^\\s]+${PASSWORD_PAGE_PATH}\\?token=[A-Za-z0-9_-]+`).exec(text)?.[0];
  if (!link) throw new Error(`no password link in the mail:\n${raw}`);
  return link;
}

/** What the password page's form sends: the link's token and the password typed twice. */
export async function choosePassword(link: string, password: string, repeat = password): Promise<{ status: number; text: string }> {
  const url = new URL(link);
  const res = await fetch(`${url.origin}${PASSWORD_PAGE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: url.searchParams.get('token') ?? '', password, repeat }),
  });
  return { status: res.status, text: await res.text() };
}

/** The console's refresh of its session at the provider, with a refresh token. */
export const refreshWith = (consoleUrl: string, refreshToken: string): Promise<Response> =>
  fetch(`${consoleUrl}/idp/token`, formPost({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'fleetlink-console' }));
