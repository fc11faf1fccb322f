/**
 * How a design's form (the list/read form or the user-designs form, spec §2.1) is stored: without the fields the
 * design's own columns already hold, with the spec's long keys made short, and given back whole on read. A million
 * designs' forms kept as the service wrote them were 890 bytes a design, two thirds of the designs table; stored
 * this way about 306 (the live service's recorded designs: 778 bytes instead of 2,871).
 *
 * The stored text stays a JSON object, and the keys SQL reads in it keep their names (`description`, `attribution`,
 * `primary_image`: search-row-values.ts, design-reads.ts, child-reads.ts). Beside it the row keeps the form's
 * layout (designs.list_layout, designs.user_form_layout; migration 0022): NULL for a form kept whole, as rows written
 * before were and as a form is whose text holds an integer past what a double holds; otherwise COMPACT_FORM_V1 plus a
 * bit for each columned field taken out (COLUMNED_FIELDS), which on read is given back from its column.
 *
 * No field is ever lost: a field is taken out only when its column holds exactly its value (a field absent stays
 * absent), a key the service sends that is one of the short keys, or begins with `~`, is kept with a `~` before it, and
 * a field whose value is not of the shape its short key stands for (tags, documents_zip) is kept under its own name.
 * JSON objects have no order: the form given back has the same fields and values, not necessarily in the same order.
 *
 * The table of short keys below is this layout's and is never changed: a different one is a new layout, told apart
 * by its value, while this one stays readable.
 */

/** The layout of a compact form written by this code, with no columned field taken out; each field taken out adds its bit. */
export const COMPACT_FORM_V1 = 1 << 16;
/** The bits a COMPACT_FORM_V1 layout may add. */
const FIELD_BITS = COMPACT_FORM_V1 - 1;
/** The layout's bit saying that `primary_image` is stored as its original's url and how its renditions' are made from it. */
const IMAGE_FROM_ORIGINAL = 1 << 12;
/** The layout's bit saying that documents_zip's url is stored without its end, `/<id>/<slug>.zip`, made from the columns. */
const ZIP_FROM_COLUMNS = 1 << 13;
/** The layout's bit saying that the values of ROW_FIELDS are stored as one array (VALUES). */
const VALUES_IN_ROW = 1 << 14;

/** A design's columns a form's fields may be given back from (designs' columns of the same names). */
export interface FormColumns {
  id: number;
  slug: string | null;
  name: string;
  excerpt: string;
  license: string | null;
  state: string | null;
  user_id: number | null;
  author_screen_name: string;
  primary_image_id: number | null;
  created_at: string | null;
  updated_at: string | null;
}

/** The fields a compact form may leave to the design's columns, in the order of their bits (never reordered). */
const COLUMNED_FIELDS = [
  'id', 'name', 'slug', 'excerpt', 'user_id', 'created_at', 'updated_at', 'primary_image_id', 'license', 'state', 'user',
] as const;
type ColumnedField = (typeof COLUMNED_FIELDS)[number];

/** The column each columned field but `user` is given back from. */
const COLUMN_OF: Record<Exclude<ColumnedField, 'user'>, keyof FormColumns> = {
  id: 'id', name: 'name', slug: 'slug', excerpt: 'excerpt', user_id: 'user_id', created_at: 'created_at', updated_at: 'updated_at',
  primary_image_id: 'primary_image_id', license: 'license', state: 'state',
};

/** Fields stored under a short key with their value as it is. */
const SHORT_KEYS: ReadonlyMap<string, string> = new Map([
  ['design_category_id', 'c'],
  ['last_trending_popularity', 'p'],
  ['current_delta_popularity', 'q'],
  ['materials', 'm'],
  ['download_count', 'n'],
  ['documents_download_count', 'o'],
  ['wiki_mode', 'w'],
  ['zipper_worker_uuid', 'u'],
]);
/** documents_zip `{ url }` is stored as its url under this key. */
const DOCUMENTS_ZIP = 'z';
/** tags, each `{ id, name, taggings_count }`, are stored as `[id, name, taggings_count]` under this key. */
const TAGS = 't';
const LONG_KEYS: ReadonlyMap<string, string> = new Map([...SHORT_KEYS].map(([long, short]) => [short, long]));
/**
 * A form holding every one of these fields has their values stored as one array, in this order, under VALUES (the
 * layout's VALUES_IN_ROW bit says so): their keys were a tenth of a synthetic design's stored form.
 */
const ROW_FIELDS = ['design_category_id', 'last_trending_popularity', 'current_delta_popularity', 'materials', 'download_count', 'documents_download_count'] as const;
const VALUES = 'v';
/** Keys a form's own key must not be stored as: it is kept with ESCAPE before it. */
const RESERVED = new Set([...SHORT_KEYS.values(), DOCUMENTS_ZIP, TAGS, VALUES]);
const ESCAPE = '~';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An image's renditions as the service lists them (spec §2.2), in its order: this layout's, never changed. */
const RENDITIONS = ['small', 'medium', 'large', 'span4', 'span2', 'span1', 'mini', 'grid', 'carousel', 'carousel_thumb'] as const;

/**
 * How a rendition's url is made from the original's (`<folder>/<file>`): `<folder>/<rendition>_<file>` (the live
 * service, 'k'), or `<folder>/<rendition>_<file without its extension>.jpg` (the local service, 'j').
 */
type RenditionRule = 'k' | 'j';
function renditionUrlOf(original: string, rendition: string, rule: RenditionRule): string {
  const slash = original.lastIndexOf('/') + 1;
  const file = original.slice(slash);
  if (rule === 'k') return `${original.slice(0, slash)}${rendition}_${file}`;
  const dot = file.lastIndexOf('.');
  return `${original.slice(0, slash)}${rendition}_${dot > 0 ? file.slice(0, dot) : file}.jpg`;
}

/**
 * A primary_image `{ file: { url, <rendition>: { url }, … } }` whose renditions' urls are made from the original's by
 * one rule, as `{ u: url, k: rule }` (and `n`, its renditions' names, when they are not RENDITIONS); null otherwise.
 */
function compactPrimaryImage(image: unknown): Record<string, unknown> | null {
  if (!isPlainObject(image)) return null;
  let keys = 0;
  for (const key in image) if (key !== 'file' || ++keys > 1) return null;
  const file = image.file;
  if (!isPlainObject(file)) return null;
  const names = Object.keys(file);
  const original = file.url;
  if (names[0] !== 'url' || typeof original !== 'string') return null;
  names.shift();
  let rule: RenditionRule | null = null;
  for (const name of names) {
    const entry = file[name];
    if (!isPlainObject(entry) || typeof entry.url !== 'string' || Object.keys(entry).length !== 1) return null;
    rule ??= entry.url === renditionUrlOf(original, name, 'k') ? 'k' : 'j';
    if (entry.url !== renditionUrlOf(original, name, rule)) return null;
  }
  const standard = names.length === RENDITIONS.length && names.every((name, i) => name === RENDITIONS[i]);
  return standard ? { u: original, k: rule ?? 'k' } : { u: original, k: rule ?? 'k', n: names };
}

function expandPrimaryImage(stored: Record<string, unknown>): Record<string, unknown> {
  const original = stored.u as string;
  const rule = stored.k as RenditionRule;
  const file: Record<string, unknown> = { url: original };
  for (const name of (stored.n as string[] | undefined) ?? RENDITIONS) put(file, name, { url: renditionUrlOf(original, name, rule) });
  return { file };
}

/** A stored form's primary_image as the service sent it (child-reads.ts reads it alone, with SQL). */
export function readStoredPrimaryImage(stored: Record<string, unknown>, layout: number | null): Record<string, unknown> {
  return layout !== null && (layout & IMAGE_FROM_ORIGINAL) !== 0 ? expandPrimaryImage(stored) : stored;
}

/** The end of a design's documents_zip url the columns make: `/<id>/<slug>.zip`. */
const zipEnd = (columns: FormColumns) => `/${columns.id}/${encodeURIComponent(columns.slug ?? '')}.zip`;

/** Whether a tag is exactly `{ id, name, taggings_count }` in that order, each of its type (stored as an array). */
function isPlainTag(tag: unknown): tag is { id: number; name: string; taggings_count: number } {
  if (!isPlainObject(tag)) return false;
  let i = 0;
  for (const key in tag) {
    if (key !== TAG_KEYS[i++]) return false;
  }
  return i === 3 && typeof tag.id === 'number' && typeof tag.name === 'string' && typeof tag.taggings_count === 'number';
}
const TAG_KEYS = ['id', 'name', 'taggings_count'] as const;

function compactTags(tags: unknown): unknown[][] | null {
  if (!Array.isArray(tags)) return null;
  const compact: unknown[][] = new Array(tags.length);
  for (let i = 0; i < tags.length; i++) {
    const tag: unknown = tags[i];
    if (!isPlainTag(tag)) return null;
    compact[i] = [tag.id, tag.name, tag.taggings_count];
  }
  return compact;
}

/** Whether `user` is exactly `{ id, screen_name }` as the columns hold it (a screen name, which fillAuthor never rewrites). */
function userInColumns(user: unknown, columns: FormColumns): boolean {
  if (!isPlainObject(user) || user.id !== columns.user_id || user.screen_name !== columns.author_screen_name || columns.author_screen_name === '') return false;
  let keys = 0;
  for (const key in user) {
    if (key !== 'id' && key !== 'screen_name') return false;
    keys++;
  }
  return keys === 2;
}

/** Whether a value holds an integer past what a double holds exactly (JSON.parse read it rounded). */
function holdsInexactInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsInexactInteger);
  for (const key in value) {
    if (holdsInexactInteger((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

export interface StoredForm {
  text: string;
  /** null: `text` is the form whole. */
  layout: number | null;
}

/**
 * A form as it is stored beside `columns` (what the design's row holds once written). `rawText`, when given, gives the
 * form as the service wrote it: kept whole when the form holds an integer past a double's precision (its digits then
 * stay as sent). A value that is not an object is kept whole.
 */
export function storeForm(raw: unknown, columns: FormColumns, rawText?: () => string | undefined): StoredForm {
  if (!isPlainObject(raw)) return { text: rawText?.() ?? JSON.stringify(raw), layout: null };
  if (rawText !== undefined && holdsInexactInteger(raw)) {
    const text = rawText();
    if (text !== undefined) return { text, layout: null };
  }
  const stored: Record<string, unknown> = {};
  let bits = 0;
  const inRow = ROW_FIELDS.every((field) => Object.hasOwn(raw, field));
  if (inRow) bits |= VALUES_IN_ROW;
  for (const key in raw) {
    const value = raw[key];
    if (inRow && ROW_FIELD_SET.has(key)) {
      stored[VALUES] ??= ROW_FIELDS.map((field) => raw[field]);
      continue;
    }
    const field = COLUMNED_BIT.get(key);
    if (field !== undefined && (field.column ? value === columns[field.column] : userInColumns(value, columns))) {
      bits |= field.bit;
      continue;
    }
    const short = SHORT_KEYS.get(key);
    const tags = key === 'tags' ? compactTags(value) : null;
    const image = key === 'primary_image' ? compactPrimaryImage(value) : null;
    if (short !== undefined) {
      stored[short] = value;
    } else if (tags !== null) {
      stored[TAGS] = tags;
    } else if (image !== null) {
      stored.primary_image = image;
      bits |= IMAGE_FROM_ORIGINAL;
    } else if (key === 'documents_zip' && isPlainObject(value) && Object.keys(value).length === 1 && 'url' in value) {
      const url = value.url;
      const end = zipEnd(columns);
      if (typeof url === 'string' && url.endsWith(end) && url.length > end.length && raw.id === columns.id && raw.slug === columns.slug) {
        stored[DOCUMENTS_ZIP] = url.slice(0, -end.length);
        bits |= ZIP_FROM_COLUMNS;
      } else {
        stored[DOCUMENTS_ZIP] = url;
      }
    } else put(stored, RESERVED.has(key) || key.startsWith(ESCAPE) ? ESCAPE + key : key, value);
  }
  return { text: JSON.stringify(stored), layout: COMPACT_FORM_V1 | bits };
}

/** obj[key] = value, also for a key `__proto__` (which JSON.parse reads as a field, and assignment would not). */
function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

const ROW_FIELD_SET: ReadonlySet<string> = new Set(ROW_FIELDS);

const COLUMNED_BIT = new Map<string, { bit: number; column: keyof FormColumns | undefined }>(
  COLUMNED_FIELDS.map((field, i) => [field, { bit: 1 << i, column: field === 'user' ? undefined : COLUMN_OF[field] }]),
);

/** Thrown for a stored form this code cannot read back (a layout it does not know, or text that is not an object). */
export class UnreadableFormError extends Error {}

/**
 * A stored form given back whole: `text` parsed, and with a compact layout its columned fields taken from `columns`,
 * its short keys made long again. Throws (SyntaxError, UnreadableFormError) when it cannot be read.
 */
export function readStoredForm(text: string, layout: number | null, columns: FormColumns): Record<string, unknown> {
  const stored = JSON.parse(text) as unknown;
  if (!isPlainObject(stored)) throw new UnreadableFormError('a stored design form is not a JSON object');
  if (layout === null) return stored;
  if ((layout & ~FIELD_BITS) !== COMPACT_FORM_V1) throw new UnreadableFormError(`a stored design form has a layout this version cannot read (${layout})`);
  return expandForm(stored, layout & FIELD_BITS, columns);
}

/**
 * The order the live service writes a design's fields in (recorded answers), by long key: a form given back puts the
 * fields taken out among the others as they stood there.
 */
const SERVICE_ORDER: ReadonlyMap<string, number> = new Map([
  'id', 'name', 'slug', 'description', 'user_id', 'created_at', 'updated_at', 'primary_image_id', 'license', 'state', 'design_category_id',
  'excerpt', 'last_trending_popularity', 'current_delta_popularity', 'materials', 'documents_zip', 'download_count',
  'documents_download_count', 'attribution', 'tags', 'user', 'wiki_mode', 'zipper_worker_uuid', 'primary_image',
].map((key, i) => [key, i]));
/** The fields a compact form may take out (columned fields, by their bit; ROW_FIELDS, by their place in VALUES), in SERVICE_ORDER. */
const TAKEN_OUT: readonly { name: string; order: number; bit: number; row: number }[] = [
  ...COLUMNED_FIELDS.map((name, bit) => ({ name, order: SERVICE_ORDER.get(name)!, bit, row: -1 })),
  ...ROW_FIELDS.map((name, row) => ({ name, order: SERVICE_ORDER.get(name)!, bit: -1, row })),
].sort((a, b) => a.order - b.order);

function expandForm(stored: Record<string, unknown>, bits: number, columns: FormColumns): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  const row = (bits & VALUES_IN_ROW) !== 0 ? stored[VALUES] as unknown[] : null;
  // The fields taken out, each put before the first stored field that follows it in SERVICE_ORDER.
  let next = 0;
  const putTakenOutBefore = (order: number) => {
    for (; next < TAKEN_OUT.length && TAKEN_OUT[next]!.order < order; next++) {
      const { name, bit, row: at } = TAKEN_OUT[next]!;
      if (at >= 0) {
        if (row) form[name] = row[at];
      } else if ((bits & (1 << bit)) !== 0) {
        form[name] = name === 'user' ? { id: columns.user_id, screen_name: columns.author_screen_name } : columns[COLUMN_OF[name as Exclude<ColumnedField, 'user'>]];
      }
    }
  };
  for (const key in stored) {
    const value = stored[key];
    if (key === VALUES && row) continue;
    const escaped = key.startsWith(ESCAPE);
    const long = escaped ? key.slice(ESCAPE.length) : key === TAGS ? 'tags' : key === DOCUMENTS_ZIP ? 'documents_zip' : LONG_KEYS.get(key) ?? key;
    const order = SERVICE_ORDER.get(long);
    if (order !== undefined) putTakenOutBefore(order);
    if (escaped) put(form, long, value);
    else if (key === TAGS) form.tags = (value as unknown[][]).map(([id, name, count]) => ({ id, name, taggings_count: count }));
    else if (key === DOCUMENTS_ZIP) form.documents_zip = { url: (bits & ZIP_FROM_COLUMNS) !== 0 ? `${value as string}${zipEnd(columns)}` : value };
    else if (key === 'primary_image' && (bits & IMAGE_FROM_ORIGINAL) !== 0) form.primary_image = expandPrimaryImage(value as Record<string, unknown>);
    else put(form, long, value);
  }
  putTakenOutBefore(Number.POSITIVE_INFINITY);
  return form;
}
