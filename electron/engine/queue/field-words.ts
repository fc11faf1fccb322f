import { said, type Said } from './said';

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
