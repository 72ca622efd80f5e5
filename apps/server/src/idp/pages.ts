/**
 * Server-rendered pages of the built-in provider. Every interpolated value goes through `esc`.
 * Colours as the console's (indigo 8 reads at 5.7:1 under white text), a visible focus ring, and
 * underlined links (WCAG 2.2 AA, issue 71).
 */
const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const style = `body{font-family:system-ui,sans-serif;background:#f1f3f5;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;padding:32px 40px;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.15);width:320px}
h1{font-size:20px;margin:0 0 4px}p{color:#495057;font-size:14px}label{display:block;font-size:14px;margin:12px 0 4px;font-weight:500}
input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #ced4da;border-radius:4px;font-size:14px}
button{margin-top:20px;width:100%;padding:10px;border:0;border-radius:4px;background:#3b5bdb;color:#fff;font-size:15px;cursor:pointer}
input:focus,button:focus-visible,a:focus-visible{outline:2px solid #3b5bdb;outline-offset:1px}a{color:#3b5bdb;text-decoration:underline}
.error{color:#c92a2a;background:#fff5f5;border:1px solid #ffc9c9;padding:8px;border-radius:4px;font-size:14px}`;

const layout = (title: string, body: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${style}</style></head><body><main>${body}</main></body></html>`;

export function loginPage(opts: { action: string; login?: string; error?: string }): string {
  // A refused sign-in marks both fields, and names the message that says why.
  const invalid = opts.error ? ' aria-invalid="true" aria-describedby="signin-error"' : '';
  return layout(
    'Sign in to Fleetlink',
    `<h1>Fleetlink</h1><p>Sign in to your account</p>
${opts.error ? `<p class="error" id="signin-error" role="alert">${esc(opts.error)}</p>` : ''}
<form method="post" action="${esc(opts.action)}" autocomplete="on">
<label for="login">Email</label><input id="login" name="login" type="email" autocomplete="username" required autofocus${invalid} value="${esc(opts.login ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>
<button type="submit">Sign in</button></form>`,
  );
}

export function errorPage(message: string): string {
  return layout('Sign-in problem', `<h1>Sign-in problem</h1><p class="error">${esc(message)}</p><p><a href="/">Back to Fleetlink</a></p>`);
}

/** A file, not an inline script: the console's CSP allows scripts from its own origin only. */
export const LOGOUT_SCRIPT_PATH = '/idp/assets/logout.js';
export const LOGOUT_SCRIPT = "document.getElementById('op.logoutForm').submit();\n";

/** RP-initiated logout from the console (its ID token as hint): it already asked "Logout", so the form submits itself. */
export function logoutPage(form: string): string {
  return layout(
    'Signing out',
    `<h1>Signing out…</h1>${form}<input type="hidden" form="op.logoutForm" name="logout" value="yes">
<button type="submit" form="op.logoutForm">Sign out</button>
<script src="${LOGOUT_SCRIPT_PATH}"></script>`,
  );
}

/**
 * A logout request without the session's ID token may come from any site (a link, an image): the
 * person confirms it here, and the provider checks the form's one-time xsrf value.
 */
export function logoutConfirmPage(form: string): string {
  return layout(
    'Sign out of Fleetlink?',
    `<h1>Sign out of Fleetlink?</h1><p>A page asked to end your Fleetlink session. Sign out only if you asked for it.</p>${form}
<input type="hidden" form="op.logoutForm" name="logout" value="yes">
<button type="submit" form="op.logoutForm">Sign out</button>
<p><a href="/">Stay signed in</a></p>`,
  );
}
