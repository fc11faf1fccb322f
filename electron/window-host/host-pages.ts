import type { IncomingMessage } from 'node:http';
import { createTranslator, type Words } from '../../shared/i18n/create-intl';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';
import { pageLanguage } from './page-language';

export { acceptedLanguages } from './page-language';

/** The host's own pages (before the window is built, an address without this run's secret): plain HTML, no script. */

/**
 * The words of a page for this request: the profile's language setting, or with 'system' the browser's languages
 * (as the window itself does with `navigator.languages`).
 */
export async function pageWords(endpoint: ContractEndpoint, request: Pick<IncomingMessage, 'headers'>): Promise<Words> {
  const { locale, browser } = await pageLanguage(endpoint, request);
  return createTranslator(locale, browser);
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
