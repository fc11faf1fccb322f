import type { IsoTime } from '../../../../shared';

/** Epoch milliseconds as the contract carries times; null for none (0 means never, too). */
export function iso(ms: number | null | undefined): IsoTime | null {
  return ms ? new Date(ms).toISOString() : null;
}
