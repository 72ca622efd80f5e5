/**
 * Server-rendered pages of the built-in provider. Every interpolated value goes through `esc`.
 * Colours as the console's (indigo 8 reads at 5.7:1 under white text), a visible focus ring, and
 * underlined links (WCAG 2.2 AA, issue 71).
 */
/** Where "Forgot password?" leads (issue 72). */
export const FORGOT_PAGE_PATH = '/idp/account/forgot';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const style = `body{font-family:system-ui,sans-serif;background:#f1f3f5;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;padding:32px 40px;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.15);width:320px}
h1{font-size:20px;margin:0 0 4px}p{color:#495057;font-size:14px}label{display:block;font-size:14px;margin:12px 0 4px;font-weight:500}
input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #ced4da;border-radius:4px;font-size:14px}
button{margin-top:20px;width:100%;padding:10px;border:0;border-radius:4px;background:#3b5bdb;color:#fff;font-size:15px;cursor:pointer}
input:focus,button:focus-visible,a:focus-visible{outline:2px solid #3b5bdb;outline-offset:1px}a{color:#3b5bdb;text-decoration:underline}
.error{color:#c92a2a;background:#fff5f5;border:1px solid #ffc9c9;padding:8px;border-radius:4px;font-size:14px}
.qr{display:block;width:200px;height:200px;margin:8px auto}code{font-size:13px;word-break:break-all}
.codes{columns:2;font-family:ui-monospace,monospace;font-size:15px;padding-left:20px}`;

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
<button type="submit">Sign in</button></form>
<p><a href="${FORGOT_PAGE_PATH}">Forgot password?</a></p>`,
  );
}

/**
 * The second step of a sign-in with two-factor authentication (issue 72): a code from the app, or
 * one of the recovery codes (letters and digits, so the field is not numeric-only).
 */
export function secondFactorPage(opts: { action: string; error?: string }): string {
  const invalid = opts.error ? ' aria-invalid="true" aria-describedby="code-error"' : '';
  return layout(
    'Two-factor authentication — Fleetlink',
    `<h1>Two-factor authentication</h1><p>Type the 6-digit code your authenticator app shows for Fleetlink, or one of your recovery codes.</p>
${opts.error ? `<p class="error" id="code-error" role="alert">${esc(opts.error)}</p>` : ''}
<form method="post" action="${esc(opts.action)}">
<label for="code">Code</label><input id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" maxlength="32" required autofocus${invalid}>
<button type="submit">Verify</button></form>`,
  );
}

/**
 * Setting up the app at sign-in, where the realm requires a second factor of administrators. The QR
 * code is the console's own SVG, shown as an image (a data URL: nothing in it runs), its secret as
 * text beside it for apps that cannot scan.
 */
export function twoFactorSetupPage(opts: { action: string; qrSvg: string; secret: string; error?: string }): string {
  const invalid = opts.error ? ' aria-invalid="true" aria-describedby="code-error"' : '';
  const qr = `data:image/svg+xml;base64,${Buffer.from(opts.qrSvg).toString('base64')}`;
  return layout(
    'Set up two-factor authentication — Fleetlink',
    `<h1>Set up two-factor authentication</h1><p>Administrators here sign in with a second factor. Scan this code with an authenticator app, then type the code it shows.</p>
<img class="qr" src="${qr}" alt="QR code of the secret for your authenticator app">
<p>Cannot scan? Enter this key in the app: <code>${esc(opts.secret)}</code></p>
${opts.error ? `<p class="error" id="code-error" role="alert">${esc(opts.error)}</p>` : ''}
<form method="post" action="${esc(opts.action)}">
<label for="code">Code from the app</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="32" required autofocus${invalid}>
<button type="submit">Turn on and sign in</button></form>`,
  );
}

/** The recovery codes, shown once, after setting up at sign-in; going on finishes the sign-in. */
export function recoveryCodesPage(opts: { action: string; codes: string[] }): string {
  return layout(
    'Your recovery codes — Fleetlink',
    `<h1>Save your recovery codes</h1><p>Each signs you in once if you lose your phone. They are not shown again: keep them somewhere safe.</p>
<ul class="codes">${opts.codes.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>
<form method="post" action="${esc(opts.action)}"><button type="submit">I saved them: continue</button></form>`,
  );
}

/** "Forgot password?" (issue 72): asks for the email, then says the same whether an account has it or not. */
export function forgotPage(opts: { canMail: boolean; sentTo?: string; error?: string }): string {
  const title = 'Forgot your password? — Fleetlink';
  if (!opts.canMail) {
    return layout(title, `<h1>Forgot your password?</h1><p>This console cannot send mail. Ask your Fleetlink administrator to help you in.</p><p><a href="/">Back to Fleetlink</a></p>`);
  }
  if (opts.sentTo !== undefined) {
    return layout(
      title,
      `<h1>Check your mail</h1><p role="status">If an account has the email ${esc(opts.sentTo)}, a link to choose a new password is on its way. It works for one hour.</p><p><a href="/">Back to Fleetlink</a></p>`,
    );
  }
  const invalid = opts.error ? ' aria-invalid="true" aria-describedby="forgot-error"' : '';
  return layout(
    title,
    `<h1>Forgot your password?</h1><p>We mail you a link to choose a new one.</p>
${opts.error ? `<p class="error" id="forgot-error" role="alert">${esc(opts.error)}</p>` : ''}
<form method="post" action="${FORGOT_PAGE_PATH}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus${invalid}>
<button type="submit">Send the link</button></form>
<p><a href="/">Back to Fleetlink</a></p>`,
  );
}

/**
 * Where an invited person (or one resetting it) chooses a password (issue 72). The link's token
 * travels in the form, so the answer's URL holds none; a refusal keeps what was typed out of the page.
 */
export function passwordPage(opts: { action: string; token: string; email: string; error?: string }): string {
  const invalid = opts.error ? ' aria-invalid="true" aria-describedby="password-error"' : '';
  return layout(
    'Choose your password — Fleetlink',
    `<h1>Choose your password</h1><p>For ${esc(opts.email)}: at least 12 characters, not a common password.</p>
${opts.error ? `<p class="error" id="password-error" role="alert">${esc(opts.error)}</p>` : ''}
<form method="post" action="${esc(opts.action)}">
<input type="hidden" name="token" value="${esc(opts.token)}">
<input type="email" name="username" autocomplete="username" value="${esc(opts.email)}" hidden readonly>
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required autofocus${invalid}>
<label for="repeat">Repeat it</label><input id="repeat" name="repeat" type="password" autocomplete="new-password" minlength="12" required${invalid}>
<button type="submit">Save password</button></form>`,
  );
}

export function passwordSetPage(email: string, consoleUrl: string): string {
  return layout(
    'Password saved — Fleetlink',
    `<h1>Password saved</h1><p>${esc(email)} can sign in now.</p><p><a href="${esc(consoleUrl)}/">Sign in to Fleetlink</a></p>`,
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
