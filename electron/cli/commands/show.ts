import { attributionOf, basedOnText, designPageUrl } from '../../engine/cache/attribution';
import { attributionWords } from '../../../shared/licenses/attribution-words';
import { coverImage, type CachedDesign } from '../../engine/cache/design-reads';
import { describeAge } from '../../engine/cache/describe-age';
import { descriptionAsText, descriptionRepeatsExcerpt } from '../../../shared/text/description-text';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { commandWords } from '../cli-words';

/** Spec §1 rule 1: no link to 3D files leaves this command; the documents zip and file addresses are left out. */
function withoutFileLinks(design: Record<string, unknown>): Record<string, unknown> {
  const { documents_zip: _zip, ...rest } = design;
  return rest;
}

export function showJson(cached: CachedDesign, pageUrl: string | null) {
  const { summary } = cached;
  return {
    ...summary,
    tags: cached.tags,
    license: cached.license,
    attribution: attributionOf(summary.name, cached.author.screenName, cached.license),
    basedOn: basedOnText(cached.design),
    pageUrl,
    fetchedAt: cached.fetchedAt,
    checkedAt: cached.checkedAt,
    ageMs: cached.ageMs,
    age: describeAge(cached.ageMs),
    design: withoutFileLinks(cached.design),
    images: cached.images.map((image) => ({ id: image.id, name: image.raw.name ?? null, localFiles: image.localFiles })),
    documents: cached.documents.map((document) => ({ id: document.id ?? null, name: document.name ?? null, file_contains_3d_model: document.file_contains_3d_model ?? null })),
  };
}

export function formatDesign(cached: CachedDesign, pageUrl: string | null, words: Words = ENGLISH_INTL): string {
  const { summary } = cached;
  const lines = [`${summary.name}  (#${summary.id}${summary.slug ? `, ${summary.slug}` : ''})${summary.own ? `  ${words.formatMessage({ id: 'cli.show.yours' })}` : ''}${summary.state && summary.state !== 'published' ? `  [${summary.state}]` : ''}`];
  const license = cached.license ? `${cached.license.title} (${cached.license.code})` : summary.license ?? words.formatMessage({ id: 'cli.show.unknownLicense' });
  lines.push(words.formatMessage({ id: 'cli.show.byLicense' }, { author: cached.author.screenName || words.formatMessage({ id: 'cli.show.unknownAuthor' }), license }));
  const attribution = attributionOf(summary.name, cached.author.screenName, cached.license);
  // Rule 2: the line's facts as the engine made it, its words the person's (attribution-words.ts).
  const card = { name: summary.name, author: { id: null, screenName: cached.author.screenName || null }, license: cached.license, attribution };
  if (attribution.text) lines.push(attributionWords(card, words) ?? attribution.text);
  else if (attribution.unavailable) lines.push(words.formatMessage({ id: 'design.license.attributionUnavailable' }));
  const basedOn = basedOnText(cached.design);
  if (basedOn) lines.push(words.formatMessage({ id: 'cli.show.basedOn' }, { original: basedOn }));
  const description = typeof cached.design.description === 'string' ? cached.design.description : '';
  if (summary.excerpt && !descriptionRepeatsExcerpt(description, summary.excerpt)) lines.push('', summary.excerpt);
  const text = descriptionAsText(description);
  if (text) lines.push('', text);
  if (cached.tags.length > 0) lines.push('', words.formatMessage({ id: 'cli.show.tags' }, { tags: cached.tags.join(', ') }));
  const cover = coverImage(cached);
  lines.push(cover?.localFiles.grid
    ? words.formatMessage({ id: 'cli.show.imagesThumbnail' }, { count: cached.images.length, file: cover.localFiles.grid })
    : words.formatMessage({ id: 'cli.show.images' }, { count: cached.images.length }));
  if (cached.documents.length > 0) lines.push(words.formatMessage({ id: 'cli.show.documents' }, { count: cached.documents.length }));
  if (pageUrl) lines.push(words.formatMessage({ id: 'cli.show.page' }, { url: pageUrl }));
  lines.push(words.formatMessage({ id: 'cli.show.cached' }, { age: describeAge(cached.ageMs, words) }));
  return lines.join('\n');
}

/** `design-sync show <id|slug> [--json]`: one design from the cache, with its age; never touches the network. */
export const showCommand: CommandModule = (program, context, say) => {
  program
    .command('show')
    .description(say('cli.help.show.description'))
    .argument(`<${say('cli.help.argumentName.design')}>`, say('cli.help.argument.design'))
    .option('--json', say('cli.help.show.option.json'))
    .action(async (key: string, options: { json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { library, connection } = await ctx.services();
      const cached = library.cachedDesign(key);
      if (!cached) throw CliError.of('cli.show.notCached', { key: JSON.stringify(key), design: key });
      const webUrl = connection.webUrl();
      const pageUrl = webUrl ? designPageUrl(webUrl, cached.summary) : null;
      ctx.io.out(options.json ? JSON.stringify(showJson(cached, pageUrl), null, 2) : formatDesign(cached, pageUrl, words));
    });
};
