import { formatBytes } from './transport-limits';

/** Where an answer came from, for messages about what it held. */
export interface BodyContext {
  /** 127.0.0.1:4010 */
  host: string;
  /** http://127.0.0.1:4010: the address a person gave as the service's. */
  origin: string;
  /** "GET /v1/designs" (never the query: it carries the token). */
  request: string;
}

/** An answer the client cannot read as what it asked for; the message says what it was and what to do. */
export class UnreadableAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableAnswer';
  }
}

/** Whether an answer is a web page: by its Content-Type, or by how it starts when it gave none that says so. */
export function isWebPage(contentType: string | null, text: string): boolean {
  if (contentType && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) return true;
  return /^\s*<(!doctype\s+html|html|head|body)\b/i.test(text);
}

function mediaType(contentType: string | null): string {
  return contentType?.split(';')[0]?.trim() || 'no content type';
}

/**
 * The JSON of a successful answer (undefined when it has no body), and the text it was read from (a list's items are
 * kept as they were written). A web page, something that is not JSON, or JSON cut short is UnreadableAnswer, whose
 * message says which (and, for a web page, that the address may not be the API's).
 */
export function readJsonAnswer(bytes: Buffer, contentType: string | null, context: BodyContext): { value: unknown; text: string } {
  if (bytes.length === 0) return { value: undefined, text: '' };
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return { value: undefined, text: '' };
  if (isWebPage(contentType, text)) {
    throw new UnreadableAnswer(
      `The service at ${context.host} answered ${context.request} with a web page (${mediaType(contentType)}) instead of data: is ${context.origin} the service's API address? Check the service address.`,
    );
  }
  try {
    return { value: JSON.parse(text) as unknown, text };
  } catch (error) {
    const cutShort = error instanceof SyntaxError && /end of (JSON )?input|Unterminated/i.test(error.message);
    if (cutShort) {
      throw new UnreadableAnswer(`The service's answer to ${context.request} ended early: its JSON stops after ${formatBytes(bytes.length)}; try again.`);
    }
    throw new UnreadableAnswer(
      `The service at ${context.host} answered ${context.request} with something that is not JSON (${mediaType(contentType)}, ${formatBytes(bytes.length)}); check the service address, or try again later.`,
    );
  }
}

/** The JSON of an error answer (4xx, 5xx) when it has some, for its message; undefined otherwise. */
export function parseErrorBody(bytes: Buffer): unknown {
  try {
    const text = bytes.toString('utf8').trim();
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
