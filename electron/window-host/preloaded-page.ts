import { FIRST_LIBRARY_PAGE, PRELOADED_ANSWERS_ID, type PreloadedAnswer } from '../../shared';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';

/**
 * How long the page waits for the engine's first answers: the library's first page takes a few ms; a busy engine (a
 * pull's writes) must not hold up the page, which then asks over the WebSocket as it would anyway.
 */
export const PRELOAD_WAIT_MS = 50;

/** The requests whose answers come with the page: what the window's first screen waits on. */
const PRELOADED = [{ name: 'library.page', input: FIRST_LIBRARY_PAGE }] as const;

/** The answers the engine gave within PRELOAD_WAIT_MS (none it did not). */
export async function firstAnswers(endpoint: ContractEndpoint, waitMs = PRELOAD_WAIT_MS): Promise<PreloadedAnswer[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    const answered: (PreloadedAnswer | null)[] = await Promise.all(PRELOADED.map(({ name, input }) =>
      Promise.race([endpoint.handle(name, input).then((outcome): PreloadedAnswer => ({ name, input, outcome }), () => null), late])));
    return answered.filter((answer): answer is PreloadedAnswer => answer !== null);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The page with the answers in a JSON data block (never run as a script, so the CSP is untouched). Every "<" in the
 * JSON is escaped, so that no text of a design (a name holding "</script>") can end the block.
 */
export function pageWithAnswers(html: string, answers: readonly PreloadedAnswer[]): string {
  if (answers.length === 0) return html;
  const json = JSON.stringify(answers).replace(/</g, '\\u003c');
  const block = `<script id="${PRELOADED_ANSWERS_ID}" type="application/json">${json}</script>`;
  const at = html.indexOf('</head>');
  return at === -1 ? `${block}${html}` : `${html.slice(0, at)}${block}${html.slice(at)}`;
}
