import type { IncomingMessage } from 'node:http';
import { PAGE_LANGUAGE_SETTING_ATTRIBUTE, type FirstFrameWords, type PageLanguage } from '../../shared/contract/first-frame';
import { catalogFor } from '../../shared/i18n/catalogs';
import { isLocale, resolveLocale, type LanguageSetting } from '../../shared/i18n/locales';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';
import { engineLog } from '../engine/log/engine-log';

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
 * The language of a page for this request: the profile's language setting, or with 'system' the browser's languages
 * (as the window itself does with `navigator.languages`). A setting the engine cannot give is taken as 'system'.
 */
export async function pageLanguage(endpoint: ContractEndpoint, request: Pick<IncomingMessage, 'headers'>): Promise<PageLanguage & { browser: string[] }> {
  const outcome = await endpoint.handle('settings.get', {});
  const asked = outcome.ok ? (outcome.value as { language?: unknown } | null)?.language : undefined;
  const setting: LanguageSetting = asked === 'system' || isLocale(asked) ? asked : 'system';
  const browser = acceptedLanguages(request.headers['accept-language']);
  return { setting, locale: resolveLocale(setting, browser), browser };
}

/**
 * The words the first frame is drawn in: the locale's catalog (loaded once, then at hand). English when another's
 * cannot be loaded: the window then does not keep the frame (its `lang` says English), and starts in its own.
 */
export async function frameWords(language: PageLanguage): Promise<{ language: PageLanguage; words: FirstFrameWords }> {
  try {
    return { language, words: { locale: language.locale, messages: await catalogFor(language.locale) } };
  } catch (error) {
    engineLog.warn('window-host', `the words of ${language.locale} could not be loaded for the first frame; it is drawn in English`, error);
    const english = { ...language, locale: 'en' as const };
    return { language: english, words: { locale: 'en', messages: await catalogFor('en') } };
  }
}

/** The page's `<html>` element says the locale it is in (`lang`) and the setting it came from (the window starts in it). */
export function pageInLanguage(html: string, language: PageLanguage): string {
  const tag = /<html\b[^>]*>/i.exec(html);
  if (!tag) return html;
  const attributes = `lang="${language.locale}" ${PAGE_LANGUAGE_SETTING_ATTRIBUTE}="${language.setting}"`;
  return `${html.slice(0, tag.index)}<html ${attributes}>${html.slice(tag.index + tag[0].length)}`;
}
