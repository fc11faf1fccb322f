import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatTimestamp } from '../../shared';
import type { UserRow } from '../database/rows';
import type { ServiceContext } from '../server/service-context';
import { findUserByScreenName, hashPassword, passwordMatches } from '../users/user-accounts';
import { serializePublicUser } from '../users/user-serializer';
import { autoPostPage, consentPage, messagePage, profilePage, signInPage } from './authorization-templates';
import { findApplication, grantAuthorization, liveAuthorization, revokeAuthorization } from './integrations';
import { checkReturnAddress, formActionSource, mayAutoApprove, safeReturnPath, type AddressCheck } from './return-addresses';
import {
  createWebSession, endWebSession, findWebSession, randomSecret, secretsMatch, SESSION_COOKIE, SESSION_LIFETIME_MS, type WebSession,
} from './web-sessions';

/** Double-submit value of the sign-in form, so that another site cannot sign the browser into an account of its choosing. */
const SIGN_IN_COOKIE = 'ds_sign_in';
const SIGN_IN_PATH = '/users/sign_in';
const SIGN_IN_FORM_LIFETIME_S = 60 * 60;
const PROFILE_PATH = '/profile';

type Application = NonNullable<ReturnType<typeof findApplication>>;
type Form = Record<string, unknown>;

const authorizePath = (slug: string) => `/integrations/${encodeURIComponent(slug)}/authorized_integrations/new`;
const grantPath = (slug: string) => `/integrations/${encodeURIComponent(slug)}/authorized_integrations`;

function formOf(request: FastifyRequest): Form {
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Form) : {};
}

/** Every page: no caching, no framing, no third-party anything; style and script only by this response's nonce. */
function sendPage(reply: FastifyReply, status: number, render: (nonce: string) => string, formTargets: string[] = ["'self'"]) {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'strict-origin-when-cross-origin')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action ${[...new Set(formTargets)].join(' ')}; `
        + "base-uri 'none'; frame-ancestors 'none'",
    )
    .send(render(nonce));
}

function sendMessage(reply: FastifyReply, status: number, title: string, message: string, link?: { href: string; text: string }) {
  return sendPage(reply, status, (nonce) => messagePage(title, message, nonce, link));
}

function seeOther(reply: FastifyReply, location: string) {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send();
}

export function registerAuthorizationPages(app: FastifyInstance, ctx: ServiceContext): void {
  let dummyHash: string | undefined;
  const session = (request: FastifyRequest): WebSession | undefined =>
    findWebSession(ctx.db, request.cookies[SESSION_COOKIE], ctx.now());

  function purposeOf(returnTo: string): string {
    const slug = /^\/integrations\/([^/]+)\//.exec(returnTo)?.[1];
    if (slug === undefined) return 'to see your profile and the applications you have authorized';
    let application: Application | undefined;
    try {
      application = findApplication(ctx.db, decodeURIComponent(slug));
    } catch {
      application = undefined; // malformed %-escape in a hand-made return_to
    }
    return application ? `to authorize ${application.name}` : 'to continue';
  }

  function sendSignIn(request: FastifyRequest, reply: FastifyReply, status: number, returnTo: string, extra: { error?: string; screenName?: string } = {}) {
    const signInToken = request.cookies[SIGN_IN_COOKIE] || randomSecret();
    reply.setCookie(SIGN_IN_COOKIE, signInToken, { path: SIGN_IN_PATH, httpOnly: true, sameSite: 'lax', maxAge: SIGN_IN_FORM_LIFETIME_S });
    return sendPage(reply, status, (nonce) =>
      signInPage({ action: SIGN_IN_PATH, returnTo, signInToken, purpose: purposeOf(returnTo), ...extra }, nonce));
  }

  function sendConsent(reply: FastifyReply, application: Application, web: WebSession, redirect: AddressCheck & { ok: true }, deny: AddressCheck & { ok: true }) {
    const view = {
      action: grantPath(application.slug),
      applicationName: application.name,
      screenName: web.user.screen_name,
      csrfToken: web.csrfToken,
      redirectUrl: redirect.url,
      denyUrl: deny.url,
      destination: redirect.parsed.origin,
      alreadyAuthorized: liveAuthorization(ctx.db, web.user.id, application.id) !== undefined,
    };
    // Deny answers with a redirect to deny_url: browsers check form-action against redirect targets too.
    return sendPage(reply, 200, (nonce) => consentPage(view, nonce), ["'self'", formActionSource(deny.parsed)]);
  }

  /** Spec §5.4: hand the token to redirect_url with a POST from the user's browser. */
  function sendAutoPost(reply: FastifyReply, application: Application, user: UserRow, redirect: AddressCheck & { ok: true }) {
    const integration = grantAuthorization(ctx.db, user.id, application.id, ctx.now());
    const view = {
      applicationName: application.name,
      redirectUrl: redirect.url,
      token: integration.token,
      userJson: JSON.stringify(serializePublicUser(user)),
      integrationJson: JSON.stringify({
        id: integration.id,
        application: application.slug,
        user_id: user.id,
        created_at: formatTimestamp(integration.created_at),
        scopes: ['read', 'write'],
      }),
    };
    return sendPage(reply, 200, (nonce) => autoPostPage(view, nonce), [formActionSource(redirect.parsed)]);
  }

  function checkAddresses(source: Form): { redirect: AddressCheck & { ok: true }; deny: AddressCheck & { ok: true } } | { problem: string } {
    const redirect = checkReturnAddress(source.redirect_url, 'redirect_url');
    if (!redirect.ok) return { problem: redirect.problem };
    const deny = checkReturnAddress(source.deny_url, 'deny_url');
    if (!deny.ok) return { problem: deny.problem };
    return { redirect, deny };
  }

  const unknownApplication = (reply: FastifyReply, slug: string) =>
    sendMessage(reply, 404, 'Unknown application', `No application called “${slug}” is registered with this service.`);
  const badAddress = (reply: FastifyReply, problem: string) => sendMessage(reply, 400, 'Bad authorization request', problem);
  const staleForm = (reply: FastifyReply, again: string) =>
    sendMessage(reply, 403, 'This form has expired', 'Your sign-in has ended or the form is out of date, so nothing was changed. Please start again.', { href: again, text: 'Start again' });

  app.get<{ Params: { application: string } }>('/integrations/:application/authorized_integrations/new', async (request, reply) => {
    const application = findApplication(ctx.db, request.params.application);
    if (!application) return unknownApplication(reply, request.params.application);
    const addresses = checkAddresses(request.query as Form);
    if ('problem' in addresses) return badAddress(reply, addresses.problem);
    const web = session(request);
    if (!web) return sendSignIn(request, reply, 200, request.url);
    if (liveAuthorization(ctx.db, web.user.id, application.id) && mayAutoApprove(addresses.redirect.parsed)) {
      return sendAutoPost(reply, application, web.user, addresses.redirect);
    }
    return sendConsent(reply, application, web, addresses.redirect, addresses.deny);
  });

  app.post<{ Params: { application: string } }>('/integrations/:application/authorized_integrations', async (request, reply) => {
    const application = findApplication(ctx.db, request.params.application);
    if (!application) return unknownApplication(reply, request.params.application);
    const form = formOf(request);
    const addresses = checkAddresses(form);
    if ('problem' in addresses) return badAddress(reply, addresses.problem);
    const again = `${authorizePath(application.slug)}?${new URLSearchParams({ redirect_url: addresses.redirect.url, deny_url: addresses.deny.url })}`;
    const web = session(request);
    if (!web || !secretsMatch(form.csrf_token, web.csrfToken)) return staleForm(reply, again);
    if (form.decision === 'deny') return seeOther(reply, addresses.deny.url);
    if (form.decision !== 'allow') return sendMessage(reply, 400, 'Bad authorization request', 'Choose Allow or Deny.', { href: again, text: 'Back' });
    return sendAutoPost(reply, application, web.user, addresses.redirect);
  });

  app.get<{ Querystring: { return_to?: unknown } }>(SIGN_IN_PATH, async (request, reply) => {
    const returnTo = safeReturnPath(request.query.return_to) ?? PROFILE_PATH;
    if (session(request)) return seeOther(reply, returnTo);
    return sendSignIn(request, reply, 200, returnTo);
  });

  app.post(SIGN_IN_PATH, async (request, reply) => {
    const form = formOf(request);
    const returnTo = safeReturnPath(form.return_to) ?? PROFILE_PATH;
    if (!secretsMatch(form.sign_in_token, request.cookies[SIGN_IN_COOKIE])) {
      return staleForm(reply, `${SIGN_IN_PATH}?${new URLSearchParams({ return_to: returnTo })}`);
    }
    const screenName = typeof form.screen_name === 'string' ? form.screen_name.trim() : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const user = screenName ? findUserByScreenName(ctx.db, screenName) : undefined;
    // Same work whether or not the user exists, so that timing does not tell which screen names are taken.
    const candidate = user ?? { password_hash: (dummyHash ??= hashPassword(randomSecret())) };
    if (!passwordMatches(candidate, password) || !user) {
      return sendSignIn(request, reply, 401, returnTo, { error: 'Wrong screen name or password.', screenName });
    }
    endWebSession(ctx.db, request.cookies[SESSION_COOKIE]);
    const cookie = createWebSession(ctx.db, user.id, ctx.now());
    reply.setCookie(SESSION_COOKIE, cookie, { path: '/', httpOnly: true, sameSite: 'lax', maxAge: SESSION_LIFETIME_MS / 1000 });
    reply.clearCookie(SIGN_IN_COOKIE, { path: SIGN_IN_PATH });
    return seeOther(reply, returnTo);
  });

  app.post(`/users/sign_out`, async (request, reply) => {
    const web = session(request);
    if (web && !secretsMatch(formOf(request).csrf_token, web.csrfToken)) return staleForm(reply, PROFILE_PATH);
    endWebSession(ctx.db, request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return sendMessage(reply, 200, 'Signed out', 'You are signed out of the service in this browser. Applications you have authorized keep their access until you revoke it.', { href: PROFILE_PATH, text: 'Sign in again' });
  });

  app.get(PROFILE_PATH, async (request, reply) => {
    const web = session(request);
    if (!web) return sendSignIn(request, reply, 200, PROFILE_PATH);
    const rows = ctx.db
      .prepare(
        `SELECT ai.id, ai.created_at, a.name FROM authorized_integrations ai JOIN applications a ON a.id = ai.application_id
         WHERE ai.user_id = ? AND ai.revoked_at IS NULL ORDER BY ai.created_at DESC, ai.id DESC`,
      )
      .all(web.user.id) as Array<{ id: number; created_at: number; name: string }>;
    const view = {
      screenName: web.user.screen_name,
      csrfToken: web.csrfToken,
      integrations: rows.map((row) => ({ id: row.id, applicationName: row.name, authorizedAt: new Date(row.created_at).toISOString() })),
    };
    return sendPage(reply, 200, (nonce) => profilePage(view, nonce));
  });

  app.post<{ Params: { id: string } }>('/profile/authorized_integrations/:id/revoke', async (request, reply) => {
    const web = session(request);
    if (!web || !secretsMatch(formOf(request).csrf_token, web.csrfToken)) return staleForm(reply, PROFILE_PATH);
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : undefined;
    if (id === undefined || !revokeAuthorization(ctx.db, web.user.id, id, ctx.now())) {
      return sendMessage(reply, 404, 'Not found', 'You have no such authorized application; it may have been revoked already.', { href: PROFILE_PATH, text: 'Back to your profile' });
    }
    return seeOther(reply, PROFILE_PATH);
  });
}
