import { createHash } from 'node:crypto';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';

/**
 * The loopback receiver's own pages: self-contained (no scripts, no external resources), every value escaped, in the
 * language of the sign-in's caller (`intl`; English by default).
 */

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
  body { margin: 0; background: #f4f4f5; color: #18181b; }
  main { max-width: 32rem; margin: 4rem auto; padding: 2rem; background: #fff; border: 1px solid #d4d4d8; border-radius: 8px; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  @media (prefers-color-scheme: dark) { body { background: #18181b; color: #f4f4f5; } main { background: #27272a; border-color: #3f3f46; } }`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Nothing but the one inline style above: no script, no form, no frame, no fetch, no image. */
export const RECEIVER_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export const RECEIVER_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': RECEIVER_CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => ESCAPES[char]!);
}

function page(intl: Words, title: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="${escapeHtml(intl.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
</main>
</body>
</html>
`;
}

export function signedInPage(screenName: string, intl: Words = ENGLISH_INTL): string {
  return page(intl, intl.formatMessage({ id: 'signIn.page.signedIn.title' }), [intl.formatMessage({ id: 'signIn.page.signedIn.body' }, { name: screenName })]);
}

export function cancelledPage(intl: Words = ENGLISH_INTL): string {
  return page(intl, intl.formatMessage({ id: 'signIn.page.cancelled.title' }), [intl.formatMessage({ id: 'signIn.page.cancelled.body' })]);
}

/** For every request the receiver does not take: says nothing about what it would take. */
export function notFoundPage(intl: Words = ENGLISH_INTL): string {
  return page(intl, intl.formatMessage({ id: 'signIn.page.notFound.title' }), [intl.formatMessage({ id: 'signIn.page.notFound.body' })]);
}

export function badRequestPage(intl: Words = ENGLISH_INTL): string {
  return page(intl, intl.formatMessage({ id: 'signIn.page.badRequest.title' }), [intl.formatMessage({ id: 'signIn.page.badRequest.body' })]);
}
