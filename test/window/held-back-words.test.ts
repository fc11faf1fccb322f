import { describe, expect, it } from 'vitest';
import type { HeldBackGroupView } from '../../shared/contract/views';
import { createTranslator } from '../../shared/i18n/create-intl';
import { builtInRuleLabel, heldBackGroupWords, holdReasonWords } from '../../shared/sync/held-back-words';

const blender: HeldBackGroupView = {
  key: 'built-in:blender-backup', count: 3, onService: 0, examples: ['Gear/gear.blend1'],
  reason: { source: 'built-in', ruleId: 'blender-backup', tool: 'Blender', label: 'Blender backups', pattern: '*.blend[0-9]' },
};
const autosave: HeldBackGroupView = {
  key: 'ignore-file:2', count: 2, onService: 0, examples: ['Gear/a.autosave'],
  reason: { source: 'ignore-file', file: '.designsyncignore', line: 2, pattern: '*.autosave' },
};

describe('what the scans held back, in words', () => {
  it('says a group in English by default, as the command line shows it', () => {
    expect(heldBackGroupWords(blender)).toBe('Blender backups: 3 not sent (built-in list, Blender)');
    expect(heldBackGroupWords(autosave)).toBe('2 not sent by *.autosave (line 2 of .designsyncignore)');
    expect(holdReasonWords(autosave.reason)).toBe('line 2 of .designsyncignore: *.autosave');
    expect(holdReasonWords(blender.reason)).toBe('Blender backups, built-in list (Blender)');
  });

  it('says which of them stay on the service, one or all or some, with the verbs agreeing', () => {
    expect(heldBackGroupWords({ ...autosave, count: 1, onService: 1 }))
      .toBe('1 not sent by *.autosave (line 2 of .designsyncignore); it was sent before and stays on the service as it is');
    expect(heldBackGroupWords({ ...autosave, onService: 2 }))
      .toBe('2 not sent by *.autosave (line 2 of .designsyncignore); they were sent before and stay on the service as they are');
    expect(heldBackGroupWords({ ...blender, onService: 1 }))
      .toBe('Blender backups: 3 not sent (built-in list, Blender); 1 of them was sent before and stays on the service as it is');
  });

  it('says them in Dutch and German, the list\'s label worded from its rule id, the pattern as it is', async () => {
    const dutch = await createTranslator('nl');
    const german = await createTranslator('de');
    expect(heldBackGroupWords(blender, dutch)).toBe('Blender-back-ups: 3 niet verstuurd (ingebouwde lijst, Blender)');
    expect(heldBackGroupWords(blender, german)).toBe('Blender-Sicherungen: 3 nicht gesendet (integrierte Liste, Blender)');
    expect(holdReasonWords(blender.reason, german)).toBe('Blender-Sicherungen, integrierte Liste (Blender)');
    expect(heldBackGroupWords({ ...autosave, onService: 2 }, german))
      .toBe('2 nicht gesendet wegen *.autosave (Zeile 2 von .designsyncignore); schon früher gesendet, bleiben unverändert auf dem Dienst');
    expect(heldBackGroupWords({ ...autosave, count: 1500, onService: 2 }, german))
      .toBe('1.500 nicht gesendet wegen *.autosave (Zeile 2 von .designsyncignore); 2 davon wurden schon früher gesendet und bleiben unverändert auf dem Dienst');
  });

  it('words a built-in entry\'s label from its rule id, lowercase where a sentence goes on, and keeps the engine\'s English for an id it does not know', async () => {
    const dutch = await createTranslator('nl');
    const german = await createTranslator('de');
    expect(builtInRuleLabel({ id: 'autocad-backup', label: 'backup files' }, dutch)).toBe('back-upbestanden');
    expect(builtInRuleLabel({ id: 'windows-thumbs-db', label: 'Windows thumbnail caches' }, german)).toBe('Windows-Miniaturansichts-Caches');
    expect(builtInRuleLabel({ id: 'autocad-backup', label: 'backup files' })).toBe('backup files');
    expect(builtInRuleLabel({ id: 'some-newer-tool', label: 'newer tool backups' }, german)).toBe('newer tool backups');
    const autocad: HeldBackGroupView = { ...blender, reason: { source: 'built-in', ruleId: 'autocad-backup', tool: 'AutoCAD', label: 'backup files', pattern: '*.bak' } };
    expect(heldBackGroupWords(autocad, dutch))
      .toBe('Back-upbestanden: 3 niet verstuurd (ingebouwde lijst, AutoCAD)');
  });
});
