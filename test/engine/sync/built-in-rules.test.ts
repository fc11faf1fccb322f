import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_RULES, type BuiltInRule } from '../../../electron/engine/sync/ignore/built-in-rules';
import { createTranslator } from '../../../shared/i18n/create-intl';
import { builtInRules } from '../../../electron/engine/sync/ignore/never-sent-rules';
import { builtInRuleLabel, builtInRuleLabelId, builtInRuleTool } from '../../../shared/sync/held-back-words';

/** Names designers publish on purpose: no built-in rule may hold any of them back. */
const PUBLISHED_NAMES = [
  'part.stl',
  'scene.blend',
  'housing.FCStd',
  'board.kicad_pcb',
  'board.kicad_sch',
  'board.kicad_pro',
  'plan.dwg',
  'model.skp',
  'shape.3dm',
  'print.3mf',
  'print.gcode',
  'part.step',
  'mesh.obj',
  'part.scad',
  'photo.jpg',
  'README.md',
  'notes.txt',
];

function matcherFor(rule: BuiltInRule) {
  return ignore().add([...rule.patterns]);
}

describe('built-in rules of names never sent', () => {
  describe.each(BUILT_IN_RULES.map((rule) => [rule.id, rule] as const))('%s', (_id, rule) => {
    it('holds back every name it gives as an example of what the tool writes', () => {
      const matcher = matcherFor(rule);
      const missed = rule.examples.ignored.filter((name) => !matcher.ignores(name));
      expect(missed).toEqual([]);
    });

    it('lets through every name it gives as an example of what must still be sent', () => {
      const matcher = matcherFor(rule);
      const caught = rule.examples.kept.filter((name) => matcher.ignores(name));
      expect(caught).toEqual([]);
    });

    it('gives at least one example each way', () => {
      expect(rule.examples.ignored.length).toBeGreaterThan(0);
      expect(rule.examples.kept.length).toBeGreaterThan(0);
    });

    it('names the tool, a label and where the behaviour is documented, as an https URL', () => {
      expect(rule.tool.trim()).not.toBe('');
      expect(rule.label.trim()).not.toBe('');
      expect(rule.patterns.length).toBeGreaterThan(0);
      const url = new URL(rule.source);
      expect(url.protocol).toBe('https:');
    });
  });

  it('gives every rule its own id', () => {
    const ids = BUILT_IN_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the files designers publish', () => {
    const caught = PUBLISHED_NAMES.flatMap((name) =>
      BUILT_IN_RULES.filter((rule) => matcherFor(rule).ignores(name)).map((rule) => `${name} (by ${rule.id})`),
    );
    expect(caught).toEqual([]);
  });

  it('keeps the files designers publish in sub-folders too', () => {
    const all = ignore().add(BUILT_IN_RULES.flatMap((rule) => [...rule.patterns]));
    const caught = PUBLISHED_NAMES.map((name) => `designs/gear/${name}`).filter((path) => all.ignores(path));
    expect(caught).toEqual([]);
  });

  it('holds back a tool folder and everything in it when it is given with a trailing slash', () => {
    const all = ignore().add(BUILT_IN_RULES.flatMap((rule) => [...rule.patterns]));
    expect(all.ignores('board-backups/')).toBe(true);
    expect(all.ignores('board-backups/board-2024-01-01_120000.zip')).toBe(true);
    // A file that merely shares the folder's name is not a folder.
    expect(all.ignores('board-backups')).toBe(false);
  });
});

describe('built-in rules\' labels in the person\'s language', () => {
  it('has a label in the catalogs for every rule, the English one the same words as the engine\'s (which the command line shows), the German its own', async () => {
    // Every entry the list shows, the hidden files' too.
    const rules = builtInRules();
    expect(rules.length).toBe(BUILT_IN_RULES.length + 1);
    expect(rules.filter((rule) => builtInRuleLabelId(rule.id) === null).map((rule) => rule.id)).toEqual([]);
    expect(rules.filter((rule) => builtInRuleLabel(rule) !== rule.label).map((rule) => rule.id)).toEqual([]);
    const german = await createTranslator('de');
    expect(rules.filter((rule) => builtInRuleLabel(rule, german) === rule.label).map((rule) => rule.id)).toEqual([]);
  });

  it('names a tool by its own name in every language, and words the one that is words ("Any program")', async () => {
    const german = await createTranslator('de');
    const worded = builtInRules().filter((rule) => builtInRuleTool(rule, german) !== rule.tool).map((rule) => rule.id);
    expect(worded).toEqual(['hidden']);
    expect(builtInRules().filter((rule) => builtInRuleTool(rule) !== rule.tool)).toEqual([]);
    expect(builtInRuleTool({ id: 'hidden', tool: 'Any program' }, german)).toBe('Jedes Programm');
  });
});
