import { slicersFor } from './find-slicers';
import { SYSTEM_DEFAULT_ID, type Slicer } from './slicer';

/** The person's choices, by file type, and under '*' the last one made (settings `openModelWith`). */
export type RememberedSlicers = Readonly<Record<string, string>>;

export const LAST_CHOICE = '*';

/**
 * Which app opens a file of this type: the one chosen for this type, else the last one chosen, while it is still
 * installed and opens the type; else the first slicer found for it (known slicers first); else the system's default app.
 */
export function chosenSlicerId(slicers: readonly Slicer[], type: string, remembered: RememberedSlicers | undefined): string {
  const opens = slicersFor(slicers, type);
  const usable = (id: string | undefined): id is string => id !== undefined && (id === SYSTEM_DEFAULT_ID || opens.some((slicer) => slicer.id === id));
  const byType = remembered?.[type.toLowerCase()];
  if (usable(byType)) return byType;
  const last = remembered?.[LAST_CHOICE];
  if (usable(last)) return last;
  return opens[0]?.id ?? SYSTEM_DEFAULT_ID;
}

/** The choices with this one remembered for its type and as the last one made. */
export const rememberSlicer = (remembered: RememberedSlicers | undefined, type: string, id: string): Record<string, string> =>
  ({ ...remembered, [type.toLowerCase()]: id, [LAST_CHOICE]: id });

/**
 * A slicer named by its id, or by its name as a person types it (`--slicer prusaslicer`, `--slicer "Bambu Studio"`):
 * the id exactly, else the one name that matches without regard to case, spaces and dashes. Null when none or several.
 */
export function slicerNamed(slicers: readonly Slicer[], wanted: string): Slicer | 'system' | null {
  const simple = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');
  if (wanted === SYSTEM_DEFAULT_ID || simple(wanted) === 'systemdefault' || simple(wanted) === 'systemdefaultapp') return 'system';
  const byId = slicers.find((slicer) => slicer.id === wanted);
  if (byId) return byId;
  const matches = slicers.filter((slicer) => simple(slicer.name) === simple(wanted) || slicer.known === simple(wanted));
  return matches.length === 1 ? matches[0]! : null;
}
