import type { ContractProblem } from '../../../shared';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import type { MessageId } from '../../../shared/i18n/messages';
import { engineWordsText } from '../../../shared/i18n/engine-words';

/** A system error code in brackets, as Node and its libraries name them: "(ECONNREFUSED)", "(UND_ERR_SOCKET)". */
const RAW_CODE = /\s*\((?:E[A-Z0-9]{2,}|ERR_[A-Z0-9_]+|UND_ERR_[A-Z0-9_]+|HPE_[A-Z0-9_]+)\)/g;
/** A line of a stack trace. */
const STACK_LINE = /^\s+at\s/;

/**
 * A problem's text as the window shows it: said once, without raw codes or stack lines (the engine log keeps them).
 * "The service cannot be reached (The service cannot be reached (ECONNREFUSED).)" becomes "The service cannot be reached."
 */
export function windowWords(text: string): string;
export function windowWords(text: string | null): string | null;
export function windowWords(text: string | null): string | null {
  if (text === null) return null;
  const lines = text.split('\n');
  const firstStackLine = lines.findIndex((line) => STACK_LINE.test(line));
  let words = (firstStackLine === -1 ? lines : lines.slice(0, firstStackLine)).join('\n').replace(RAW_CODE, '').trim();
  for (let unnested = unnest(words); unnested !== words; unnested = unnest(words)) words = unnested;
  return words.replace(/\.{2,}$/, '.');
}

/** "X (X…)" → "X…": a message that repeats itself inside brackets is said once. */
function unnest(text: string): string {
  const open = text.indexOf('(');
  if (open <= 0) return text;
  const close = matchingBracket(text, open);
  if (close === -1) return text;
  const outer = text.slice(0, open).trim();
  const inner = text.slice(open + 1, close).trim();
  if (!outer || !inner.toLowerCase().startsWith(outer.toLowerCase().replace(/[.:;]$/, ''))) return text;
  const rest = text.slice(close + 1).replace(/^\.+/, '').trim();
  return `${inner}${rest ? ` ${rest}` : ''}`.trim();
}

function matchingBracket(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && --depth === 0) return index;
  }
  return -1;
}

/** The label the window shows beside each field the service (or the contract) names, by field. */
const FIELD_LABELS: Readonly<Record<string, MessageId>> = {
  name: 'fields.name',
  excerpt: 'fields.excerpt',
  license: 'fields.license',
  description: 'fields.description',
  primary_image_id: 'fields.coverImage',
  primaryImageId: 'fields.coverImage',
  state: 'fields.state',
  tags: 'fields.tags',
  file: 'fields.file',
  fileName: 'fields.fileName',
  serviceUrl: 'fields.serviceUrl',
  webUrl: 'fields.webUrl',
  cacheLimitMb: 'fields.cacheLimitMb',
  catalogueRefreshMinutes: 'fields.catalogueRefreshMinutes',
  reviewBeforePublishing: 'fields.reviewBeforePublishing',
  path: 'fields.path',
};

/**
 * The window's label of a field, in its language; a field without one is the service's own name for it, made into
 * words ("screen_name" → "Screen name").
 */
export function fieldLabelWords(field: string, intl: Words = ENGLISH_INTL): string {
  const known = Object.hasOwn(FIELD_LABELS, field) ? FIELD_LABELS[field] : undefined;
  if (known) return intl.formatMessage({ id: known });
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : intl.formatMessage({ id: 'fields.unknown' });
}

/**
 * One field error with the label the window shows ("Summary can't be blank", "Zusammenfassung: can't be blank"): the
 * error itself is the service's, as it sent it; `base` (the design as a whole) is said as it is.
 */
export function labelledFieldErrorWords(field: string, message: string, intl: Words = ENGLISH_INTL): string {
  if (field === 'base') return message ? message[0]!.toUpperCase() + message.slice(1) : message;
  return intl.formatMessage({ id: 'problems.fieldError' }, { field: fieldLabelWords(field, intl), error: message });
}

/**
 * The contract's checks (zod) word a refused field for programmers ("Too small: expected number to be >=50"): said
 * the way the service says its own ("must be at least 50"), in the window's language, to follow the field's label.
 * Other words (the service's) pass as they are.
 */
const SCHEMA_WORDS: [RegExp, (intl: Words, ...found: string[]) => string][] = [
  [/^Too small: expected string to have >=1 characters?$/, (intl) => intl.formatMessage({ id: 'problems.schema.blank' })],
  [/^Too small: expected string to have >=(\d+) characters?$/, (intl, n) => intl.formatMessage({ id: 'problems.schema.minLength' }, { count: Number(n) })],
  [/^Too big: expected string to have <=(\d+) characters?$/, (intl, n) => intl.formatMessage({ id: 'problems.schema.maxLength' }, { count: Number(n) })],
  [/^Too small: expected (?:number|int|bigint) to be >=(-?[\d.]+)$/, (intl, n) => intl.formatMessage({ id: 'problems.schema.min' }, { value: Number(n) })],
  [/^Too small: expected (?:number|int|bigint) to be >(-?[\d.]+)$/, (intl, n) => intl.formatMessage({ id: 'problems.schema.moreThan' }, { value: Number(n) })],
  [/^Too big: expected (?:number|int|bigint) to be <=(-?[\d.]+)$/, (intl, n) => intl.formatMessage({ id: 'problems.schema.max' }, { value: Number(n) })],
  [/^Too big: expected (?:number|int|bigint) to be <(-?[\d.]+)$/, (intl, n) => intl.formatMessage({ id: 'problems.schema.lessThan' }, { value: Number(n) })],
  [/^Invalid input: expected int, received number$/, (intl) => intl.formatMessage({ id: 'problems.schema.wholeNumber' })],
  [/^Invalid input: expected number, received \w+$/, (intl) => intl.formatMessage({ id: 'problems.schema.number' })],
  [/^Invalid URL$/, (intl) => intl.formatMessage({ id: 'problems.schema.url' })],
  [/^Invalid option: expected one of .*$/, (intl) => intl.formatMessage({ id: 'problems.schema.choice' })],
  [/^Invalid input(?:: .*)?$/, (intl) => intl.formatMessage({ id: 'problems.schema.invalid' })],
];

export function fieldMessageWords(message: string, intl: Words = ENGLISH_INTL): string {
  for (const [pattern, words] of SCHEMA_WORDS) {
    const found = pattern.exec(message);
    if (found) return words(intl, ...found.slice(1));
  }
  return message;
}

/**
 * Every field error as a sentence with its label, in the window's language (the errors themselves as the service
 * sent them, the contract's own in the window's words).
 */
export function fieldErrorSentences(fieldErrors: Record<string, string[]>, intl: Words = ENGLISH_INTL): string[] {
  return Object.entries(fieldErrors).flatMap(([field, messages]) => messages.map((message) => labelledFieldErrorWords(field, fieldMessageWords(message, intl), intl)));
}

/**
 * A contract problem in the window's words: the engine's own refusal from its facts, field errors with the labels the
 * window shows, anything else said once.
 */
export function problemWords(problem: ContractProblem, intl: Words = ENGLISH_INTL): string {
  if (problem.words) return engineWordsText(intl, problem.words);
  if (problem.kind === 'validation') {
    const sentences = fieldErrorSentences(problem.fieldErrors, intl);
    if (sentences.length > 0) return `${sentences.join('. ')}.`;
  }
  return windowWords(problem.message);
}

/**
 * The service's refusal, then what was searched instead: said once ("The service's search failed: …" only when the
 * problem does not already say the search failed).
 */
export function searchFailedWords(problem: string, intl: Words = ENGLISH_INTL): string {
  const said = problem.replace(/[.\s]+$/, '');
  if (!said) return intl.formatMessage({ id: 'problems.search.failed' });
  if (/\bsearch\b/i.test(said)) return intl.formatMessage({ id: 'problems.search.failedSaid' }, { problem: said });
  // "The service…" reads on after a colon in lower case; "HTTP 500…" keeps its capitals.
  const lead = /^[A-Z][a-z]/.test(said) ? said[0]!.toLowerCase() + said.slice(1) : said;
  return intl.formatMessage({ id: 'problems.search.failedWhy' }, { problem: lead });
}
