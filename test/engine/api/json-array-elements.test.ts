import { describe, expect, it } from 'vitest';
import { jsonArrayElementTexts } from '../../../electron/engine/api/json-array-elements';
import { seededRandom } from '../../../service/seed/seeded-random';

/** Strings that end, nest or escape where a careless cut would not expect it. */
const AWKWARD_STRINGS = ['', '"', '\\', '\\"', 'a,b', '[', ']', '{"x":1}', '}]', 'é – 𝒜 🚀', '\u2028', '\n\t', 'ends with \\\\'];

function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0: return AWKWARD_STRINGS[Math.floor(random() * AWKWARD_STRINGS.length)];
    case 1: return Math.round((random() - 0.5) * 1e6) / 100;
    case 2: return random() < 0.5;
    case 3: return null;
    case 4: return String.fromCharCode(...Array.from({ length: Math.floor(random() * 8) }, () => 32 + Math.floor(random() * 0x2fd0)));
    case 5: return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default: return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`${AWKWARD_STRINGS[i % AWKWARD_STRINGS.length]}${i}`, randomValue(random, depth + 1)]));
  }
}

describe('a JSON array cut into its elements\' texts', () => {
  it('gives each element as it was written, whatever its strings hold, compact or indented', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 300; round++) {
      const items = Array.from({ length: Math.floor(random() * 6) }, () => randomValue(random));
      for (const text of [JSON.stringify(items), JSON.stringify(items, null, round % 2 ? 2 : '\t'), `\uFEFF \n${JSON.stringify(items)}\r\n `]) {
        const elements = jsonArrayElementTexts(text);
        expect(elements).not.toBeNull();
        expect(elements!.map((element) => JSON.parse(element) as unknown)).toEqual(items);
        if (!text.includes('\n  ') && !text.includes('\t')) expect(elements).toEqual(items.map((item) => JSON.stringify(item)));
      }
    }
  });

  it('keeps escapes as the service wrote them', () => {
    expect(jsonArrayElementTexts('[{"name":"caf\\u00e9 \\"A\\"\\\\"}, 2 ,"x"]')).toEqual(['{"name":"caf\\u00e9 \\"A\\"\\\\"}', '2', '"x"']);
  });

  it('says null for a value that is not an array', () => {
    expect(jsonArrayElementTexts('{"designs":[{"id":1}]}')).toBeNull();
    expect(jsonArrayElementTexts('"[1]"')).toBeNull();
    expect(jsonArrayElementTexts('null')).toBeNull();
    expect(jsonArrayElementTexts('[ ]')).toEqual([]);
  });
});
