import type { DesignCard } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';

/**
 * Spec §1 rule 2's attribution line in the locale of `intl` (English by default: the engine's own `attribution.text`):
 * "“Gear” by alice, licensed Creative Commons Attribution". Its facts are the card's, those the engine made the line
 * from (the design's name, its author's screen name, the license's title, never translated); only the words around
 * them are the person's. Null when no line is given (none required, or the author unknown: `unavailable`).
 */
export function attributionWords(card: Pick<DesignCard, 'name' | 'author' | 'license' | 'attribution'>, intl: Words = ENGLISH_INTL): string | null {
  const { text } = card.attribution;
  if (!text) return null;
  const author = card.author.screenName;
  const license = card.license?.title;
  // A line the card's facts cannot give again (never expected) is shown as the engine made it: never a wrong one.
  if (!author || !license) return text;
  return intl.formatMessage({ id: 'attribution.line' }, { name: card.name, author, license });
}
