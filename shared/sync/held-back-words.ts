import type { HeldBackGroupView, HoldReasonView } from '../contract/views';

/** Why something is never sent, in words: "Blender backups, built-in list (Blender)" or "line 3 of .designsyncignore: *.bak". */
export function holdReasonWords(reason: HoldReasonView): string {
  return reason.source === 'built-in' ? `${reason.label}, built-in list (${reason.tool})` : `line ${reason.line} of ${reason.file}: ${reason.pattern}`;
}

/**
 * One group of what the scans held back, in words the window, the tray and `design-sync status` share: "Blender
 * backups: 3 not sent (built-in list, Blender)", "2 not sent by *.autosave (line 2 of .designsyncignore)"; a synced
 * file that became ignored is said to stay on the service.
 */
export function heldBackGroupWords(group: HeldBackGroupView): string {
  const { reason, count, onService } = group;
  const head = reason.source === 'built-in'
    ? `${capitalized(reason.label)}: ${count} not sent (built-in list, ${reason.tool})`
    : `${count} not sent by ${reason.pattern} (line ${reason.line} of ${reason.file})`;
  if (onService === 0) return head;
  return `${head}; ${onService === count ? (count === 1 ? 'it was' : 'they were') : `${onService} of them were`} sent before and ${onService === 1 ? 'stays' : 'stay'} on the service as ${onService === 1 ? 'it is' : 'they are'}`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
