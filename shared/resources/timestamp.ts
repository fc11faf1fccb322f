import { z } from 'zod';

/** ISO 8601 with milliseconds and a numeric UTC offset, e.g. 2026-11-22T09:36:12.345+00:00 (spec §2). */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

export const timestamp = z.string().regex(TIMESTAMP_PATTERN, 'timestamp must be ISO 8601 with milliseconds and a numeric offset');

export function formatTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('Z', '+00:00');
}
