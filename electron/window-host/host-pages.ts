import type { IncomingMessage } from 'node:http';
import { createTranslator, type Words } from '../../shared/i18n/create-intl';
import { resolveLocale, type LanguageSetting } from '../../shared/i18n/locales';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';

/** The host's own pages (before the window is built, an address without this run's secret): plain HTML, no script. */

/**
 * The languages a browser asks for (`Accept-Language: de-AT,de;q=0.9,en;q=0.5`), most wanted first; `*` and
 * refused ones (q=0) left out.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => tag !== '' && tag !== '*' && q > 0 && Number.isFinite(q))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

/**
 * The words of a page for this request: the profile's language setting, or with 'system' the browser's languages
 * (as the window itself does with `navigator.languages`).
 */
export async function pageWords(endpoint: ContractEndpoint, request: Pick<IncomingMessage, 'headers'>): Promise<Words> {
  const outcome = await endpoint.handle('settings.get', {});
  const setting = outcome.ok ? (outcome.value as { language?: LanguageSetting } | null)?.language : undefined;
  const browser = acceptedLanguages(request.headers['accept-language']);
  return createTranslator(resolveLocale(setting, browser), browser);
}

function page(intl: Words, title: string, heading: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="${intl.locale}">
<head><meta charset="utf-8"><title>${title}</title></head>
<body>
<h1>${heading}</h1>
${paragraphs.map((text) => `<p>${text}</p>`).join('\n')}
</body>
</html>
`;
}

const COMMAND = '<code>design-sync ui</code>';

/** What `/` shows until the window is built. */
export function notBuiltPage(intl: Words): string {
  return page(intl, 'design-sync', 'design-sync', [
    intl.formatMessage({ id: 'host.notBuilt.running' }, { address: '<code>/contract</code>' }),
    intl.formatMessage({ id: 'host.notBuilt.build' }, { command: COMMAND }),
  ]);
}

/** What an address without this run's secret (or its cookie) shows. */
export function notSignedPage(intl: Words): string {
  return page(intl, intl.formatMessage({ id: 'host.notSigned.title' }), intl.formatMessage({ id: 'host.notSigned.heading' }), [
    intl.formatMessage({ id: 'host.notSigned.body' }, { command: COMMAND }),
  ]);
}
