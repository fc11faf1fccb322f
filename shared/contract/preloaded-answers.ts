import type { Outcome } from './protocol';

/** Designs the library asks for at a time: a page of its grid. */
export const LIBRARY_PAGE_SIZE = 60;

/** The library's first page as the window asks it when it starts (no words, no license, newest first). */
export const FIRST_LIBRARY_PAGE = { query: '', licenses: [], sort: 'newest', offset: 0, limit: LIBRARY_PAGE_SIZE } as const;

/**
 * The page element in which the window host (`design-sync ui`) hands the window answers along with the page itself,
 * so that its first screen does not wait for the WebSocket to open and a request to go round: JSON, PreloadedAnswer[].
 */
export const PRELOADED_ANSWERS_ID = 'contract-answers';

export interface PreloadedAnswer {
  name: string;
  input: unknown;
  outcome: Outcome<unknown>;
}

/** A request's name and input as one string, the input's keys sorted (the same request however its object was built). */
export function requestKey(name: string, input: unknown): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]));
  };
  return JSON.stringify([name, sorted(input)]);
}
