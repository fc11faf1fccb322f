import { builtInRuleLabelId } from '../../../shared/sync/held-back-words';
import { ENGLISH, type MessageId } from '../../../shared/i18n/messages';
import { said, type Said } from '../queue/said';
import type { HoldReason } from './ignore/never-sent-rules';
import type { LocalEntry } from './local-files';

const camel = (id: string) => id.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Why something is never sent, as facts (the same words as holdReasonWords): a built-in entry's label and tool by its
 * rule id when the catalogs know it, else as the engine has them; an ignore file's line, file and pattern as they are.
 */
export function holdReasonSaid(reason: HoldReason): Said {
  if (reason.source !== 'built-in') return said('sync.holdReason.ignoreFile', { line: reason.line, file: reason.file, pattern: reason.pattern });
  const labelId = builtInRuleLabelId(reason.ruleId);
  const toolId = `sync.neverSent.ruleTool.${camel(reason.ruleId)}`;
  return said('sync.holdReason.builtIn', {
    label: labelId ? { id: labelId } : reason.label,
    tool: Object.hasOwn(ENGLISH, toolId) ? { id: toolId as MessageId } : reason.tool,
  });
}

/** A special entry (a named pipe, a socket, a device) in words, for the person. */
export function specialSaid(entry: Pick<LocalEntry, 'special'>): Said {
  const special = entry.special === 'fifo' ? 'fifo' : entry.special === 'socket' ? 'socket'
    : entry.special === 'character-device' ? 'characterDevice' : entry.special === 'block-device' ? 'blockDevice' : 'other';
  return said('activity.scan.special', { special });
}
