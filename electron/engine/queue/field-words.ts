import { fieldLabel, labelledFieldError, type FieldErrors } from '../../../shared';
import type { MessageId } from '../../../shared/i18n/messages';
import { said, type Said, type SaidValue } from './said';

/** A field as a select's key of the catalogs ("primary_image_id" → "primaryImageId"). */
const fieldCode = (field: string): string => field.replace(/[_-]([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The fields an edit changed, in a sentence's words ("name, summary"): each field in the catalogs' words (a field they
 * lack is said by its name), joined as a list. Null when there are none.
 */
export function fieldList(fields: readonly string[]): Said | null {
  const words = fields.map((field) => said('activity.field', { field: fieldCode(field) }));
  if (words.length === 0) return null;
  return words.reduceRight((rest, first) => said('activity.list.pair', { first, rest }));
}

/** The catalogs' label of each field the service or the shared checks name (as the window labels them). */
const FIELD_LABEL_IDS: Readonly<Record<string, MessageId>> = {
  name: 'fields.name', excerpt: 'fields.excerpt', license: 'fields.license', description: 'fields.description',
  primary_image_id: 'fields.coverImage', primaryImageId: 'fields.coverImage', state: 'fields.state', tags: 'fields.tags',
  file: 'fields.file', fileName: 'fields.fileName',
};

/**
 * Field errors as facts, each under the label the window gives its field ("Summary can't be blank"; a field the
 * catalogs have no label for by its English label), the errors themselves as they were given (the service's words),
 * `base` (the design as a whole) as it is; joined as describeLabelledFieldErrors joins them. Null when there are none.
 */
export function fieldErrorsSaid(errors: FieldErrors): Said | null {
  const sentences: SaidValue[] = Object.entries(errors).flatMap(([field, messages]) => messages.map((message): SaidValue => {
    if (field === 'base') return labelledFieldError(field, message);
    const labelId = Object.hasOwn(FIELD_LABEL_IDS, field) ? FIELD_LABEL_IDS[field] : undefined;
    return said('problems.fieldError', { field: labelId ? { id: labelId } : fieldLabel(field), error: message });
  }));
  if (sentences.length === 0) return null;
  const last = sentences.at(-1)!;
  const rest: Said = typeof last === 'object' && 'text' in last ? last : said('activity.list.one', { item: last });
  return sentences.slice(0, -1).reduceRight<Said>((joined, first) => said('activity.list.semicolon', { first, rest: joined }), rest);
}
