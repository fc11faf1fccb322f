import type { HeldBackGroupView, HoldReasonView } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';

/**
 * Why something is never sent, in words, in the language of `intl` (English by default): "Blender backups, built-in
 * list (Blender)" or "line 3 of .designsyncignore: *.bak". A built-in entry's label comes from the engine's list.
 */
export function holdReasonWords(reason: HoldReasonView, intl: Words = ENGLISH_INTL): string {
  return reason.source === 'built-in'
    ? intl.formatMessage({ id: 'sync.holdReason.builtIn' }, { label: reason.label, tool: reason.tool })
    : intl.formatMessage({ id: 'sync.holdReason.ignoreFile' }, { line: reason.line, file: reason.file, pattern: reason.pattern });
}

/**
 * One group of what the scans held back, in words the window, the tray and `design-sync status` share: "Blender
 * backups: 3 not sent (built-in list, Blender)", "2 not sent by *.autosave (line 2 of .designsyncignore)"; a synced
 * file that became ignored is said to stay on the service.
 */
export function heldBackGroupWords(group: HeldBackGroupView, intl: Words = ENGLISH_INTL): string {
  const { reason, count, onService } = group;
  const held = reason.source === 'built-in'
    ? intl.formatMessage({ id: 'sync.heldBack.builtIn' }, { label: capitalized(reason.label, intl), count, tool: reason.tool })
    : intl.formatMessage({ id: 'sync.heldBack.ignoreFile' }, { count, pattern: reason.pattern, line: reason.line, file: reason.file });
  if (onService === 0) return held;
  return intl.formatMessage({ id: 'sync.heldBack.onService' }, { held, all: onService === count ? 'yes' : 'no', count, onService });
}

const capitalized = (text: string, intl: Words) => text.charAt(0).toLocaleUpperCase(intl.locale) + text.slice(1);
