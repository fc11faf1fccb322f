import type { HeldBackGroupView, HoldReasonView } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';
import { ENGLISH, type MessageId } from '../i18n/messages';

/**
 * A built-in entry's label ("Blender backups") in the language of `intl`, from its rule id (the key
 * `sync.neverSent.ruleLabel.<id in camel case>`); the engine's English label when the catalogs do not know the id.
 */
export function builtInRuleLabel(rule: { id: string; label: string }, intl: Words = ENGLISH_INTL): string {
  const id = builtInRuleLabelId(rule.id);
  return id ? intl.formatMessage({ id }) : rule.label;
}

/** The message id of a built-in rule's label, or null when the catalogs have none for it. */
export function builtInRuleLabelId(ruleId: string): MessageId | null {
  const id = `sync.neverSent.ruleLabel.${ruleId.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())}`;
  return Object.hasOwn(ENGLISH, id) ? (id as MessageId) : null;
}

/**
 * The tool a built-in entry is about ("Blender"), or what stands for one ("Any program", key
 * `sync.neverSent.ruleTool.<id in camel case>`) in the language of `intl`: a tool's name is never translated.
 */
export function builtInRuleTool(rule: { id: string; tool: string }, intl: Words = ENGLISH_INTL): string {
  const id = `sync.neverSent.ruleTool.${rule.id.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())}`;
  return Object.hasOwn(ENGLISH, id) ? intl.formatMessage({ id: id as MessageId }) : rule.tool;
}

/**
 * Why something is never sent, in words, in the language of `intl` (English by default): "Blender backups, built-in
 * list (Blender)" or "line 3 of .designsyncignore: *.bak". A built-in entry's label is worded from its rule id.
 */
export function holdReasonWords(reason: HoldReasonView, intl: Words = ENGLISH_INTL): string {
  return reason.source === 'built-in'
    ? intl.formatMessage({ id: 'sync.holdReason.builtIn' }, { label: builtInRuleLabel({ id: reason.ruleId, label: reason.label }, intl), tool: builtInRuleTool({ id: reason.ruleId, tool: reason.tool }, intl) })
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
    ? intl.formatMessage({ id: 'sync.heldBack.builtIn' }, { label: capitalized(builtInRuleLabel({ id: reason.ruleId, label: reason.label }, intl), intl), count, tool: builtInRuleTool({ id: reason.ruleId, tool: reason.tool }, intl) })
    : intl.formatMessage({ id: 'sync.heldBack.ignoreFile' }, { count, pattern: reason.pattern, line: reason.line, file: reason.file });
  if (onService === 0) return held;
  return intl.formatMessage({ id: 'sync.heldBack.onService' }, { held, all: onService === count ? 'yes' : 'no', count, onService });
}

const capitalized = (text: string, intl: Words) => text.charAt(0).toLocaleUpperCase(intl.locale) + text.slice(1);
