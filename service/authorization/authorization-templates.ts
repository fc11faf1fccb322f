import { html, SafeHtml } from '../http/safe-html';

/** Server-rendered pages of the browser authorization flow (spec §5). Everything interpolated is escaped by html``. */

/** id of the form that carries the token to redirect_url; the client's browser tests look for it. */
export const AUTO_POST_FORM_ID = 'authorized-integration-form';

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
  body { margin: 0; background: #f4f4f5; color: #18181b; }
  main { max-width: 32rem; margin: 4rem auto; padding: 2rem; background: #fff; border: 1px solid #d4d4d8; border-radius: 8px; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; margin: 1rem 0 .25rem; font-weight: 600; }
  input[type=text], input[type=password] { box-sizing: border-box; width: 100%; padding: .5rem; font: inherit; border: 1px solid #a1a1aa; border-radius: 4px; }
  button { font: inherit; padding: .5rem 1.25rem; margin: 1rem .5rem 0 0; border-radius: 4px; border: 1px solid #52525b; background: #fff; color: #18181b; cursor: pointer; }
  button.primary { background: #1d4ed8; border-color: #1d4ed8; color: #fff; }
  .error { padding: .75rem; border-radius: 4px; background: #fee2e2; color: #7f1d1d; }
  .muted { color: #52525b; font-size: .9rem; }
  code { overflow-wrap: anywhere; }
  table { width: 100%; border-collapse: collapse; }
  td, th { text-align: left; padding: .5rem .25rem; border-bottom: 1px solid #e4e4e7; }
  td form { margin: 0; } td button { margin: 0; }
  @media (prefers-color-scheme: dark) {
    body { background: #18181b; color: #f4f4f5; } main { background: #27272a; border-color: #3f3f46; }
    button { background: #3f3f46; color: #f4f4f5; } .muted { color: #a1a1aa; } td, th { border-color: #3f3f46; }
  }`;

/** The page shell. style and script are constants of this file, never user data. */
export function layout(title: string, nonce: string, body: SafeHtml, script?: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
${body}
</main>
${script === undefined ? '' : html`<script nonce="${nonce}">${new SafeHtml(script)}</script>`}
</body>
</html>
`.value;
}

export interface SignInView {
  action: string;
  returnTo: string;
  signInToken: string;
  /** What the user is signing in for, e.g. "to authorize design-sync". */
  purpose: string;
  screenName?: string;
  error?: string;
}

export function signInPage(view: SignInView, nonce: string): string {
  return layout('Sign in', nonce, html`
<h1>Sign in</h1>
<p>Sign in ${view.purpose}.</p>
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<form method="post" action="${view.action}">
  <input type="hidden" name="sign_in_token" value="${view.signInToken}">
  <input type="hidden" name="return_to" value="${view.returnTo}">
  <label for="screen_name">Screen name</label>
  <input type="text" id="screen_name" name="screen_name" value="${view.screenName ?? ''}" autocomplete="username" required autofocus>
  <label for="password">Password</label>
  <input type="password" id="password" name="password" autocomplete="current-password" required>
  <button type="submit" class="primary">Sign in</button>
</form>`);
}

export interface ConsentView {
  action: string;
  applicationName: string;
  screenName: string;
  csrfToken: string;
  redirectUrl: string;
  denyUrl: string;
  /** Where the token will go: redirect_url's origin. */
  destination: string;
  alreadyAuthorized: boolean;
}

export function consentPage(view: ConsentView, nonce: string): string {
  return layout(`Authorize ${view.applicationName}`, nonce, html`
<h1>Authorize ${view.applicationName}?</h1>
<p>Signed in as <strong>${view.screenName}</strong>.</p>
<p><strong>${view.applicationName}</strong> will be able to act on your behalf: read and change your designs,
their images and documents, and read your profile. It can do anything you can do through the service's interface.</p>
<p class="muted">Its access key will be sent to <code>${view.destination}</code>.
${view.alreadyAuthorized ? ' You have already authorized this application; allowing again hands over the same access key.' : ''}
You can revoke access at any time from your profile page.</p>
<form method="post" action="${view.action}">
  <input type="hidden" name="csrf_token" value="${view.csrfToken}">
  <input type="hidden" name="redirect_url" value="${view.redirectUrl}">
  <input type="hidden" name="deny_url" value="${view.denyUrl}">
  <button type="submit" name="decision" value="allow" class="primary">Allow</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`);
}

export interface AutoPostView {
  applicationName: string;
  redirectUrl: string;
  token: string;
  userJson: string;
  integrationJson: string;
}

/** Spec §5.4: the browser POSTs the token to redirect_url. The form submits itself; Continue is there for when scripts are off. */
export function autoPostPage(view: AutoPostView, nonce: string): string {
  const script = `document.getElementById(${JSON.stringify(AUTO_POST_FORM_ID)}).submit();`;
  return layout(`Returning to ${view.applicationName}`, nonce, html`
<h1>Returning to ${view.applicationName}…</h1>
<form id="${AUTO_POST_FORM_ID}" method="post" action="${view.redirectUrl}">
  <input type="hidden" name="authentication_token" value="${view.token}">
  <input type="hidden" name="user" value="${view.userJson}">
  <input type="hidden" name="authorized_integration" value="${view.integrationJson}">
  <noscript><p>Scripts are off in this browser: press Continue to finish.</p></noscript>
  <button type="submit" class="primary">Continue</button>
</form>`, script);
}

export interface ProfileView {
  screenName: string;
  csrfToken: string;
  integrations: Array<{ id: number; applicationName: string; authorizedAt: string }>;
}

export function profilePage(view: ProfileView, nonce: string): string {
  const rows = view.integrations.map((integration) => html`
    <tr>
      <td>${integration.applicationName}</td>
      <td><time datetime="${integration.authorizedAt}">${integration.authorizedAt.replace('T', ' ').slice(0, 16)} UTC</time></td>
      <td><form method="post" action="/profile/authorized_integrations/${integration.id}/revoke">
        <input type="hidden" name="csrf_token" value="${view.csrfToken}">
        <button type="submit">Revoke</button>
      </form></td>
    </tr>`);
  return layout('Your profile', nonce, html`
<h1>Your profile</h1>
<p>Signed in as <strong>${view.screenName}</strong>.</p>
<h2>Authorized applications</h2>
${rows.length === 0
    ? html`<p>You have not authorized any application.</p>`
    : html`<table><thead><tr><th>Application</th><th>Authorized</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">Revoking stops the application's access key at once; the application will have to ask you again.</p>`}
<form method="post" action="/users/sign_out">
  <input type="hidden" name="csrf_token" value="${view.csrfToken}">
  <button type="submit">Sign out</button>
</form>`);
}

export function messagePage(title: string, message: string, nonce: string, link?: { href: string; text: string }): string {
  return layout(title, nonce, html`
<h1>${title}</h1>
<p>${message}</p>
${link ? html`<p><a href="${link.href}">${link.text}</a></p>` : ''}`);
}
