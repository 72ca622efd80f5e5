import { createTransport } from 'nodemailer';

/**
 * The console's one way to mail (the contact form, alerts): nodemailer over SMTP_URL
 * (`smtp://user:pass@host:587` or `smtps://…`, never logged), with bounded waits, so a mail server
 * that hangs cannot keep a message 'sending' for good.
 */
export const createMailTransport = (smtpUrl: string) => createTransport({ url: smtpUrl, connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 });

/** What the mail server answered when it would not take a message (`550 5.7.1 …`), otherwise what went wrong on the way. */
export function describeMailError(err: unknown): string {
  const e = err as { response?: string; responseCode?: number; code?: string; message?: string };
  if (e.response) return e.response;
  return [e.code, e.message].filter(Boolean).join(': ') || 'unknown error';
}
