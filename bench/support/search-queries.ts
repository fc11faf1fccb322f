import { SYNTHETIC_WORDS } from '../../service/seed/synthetic-seed';

/** What people type: one word, two words, half a word, a tag, an author, a material, and words nothing has. */
export function queries(count = 1_000): string[] {
  const nouns = SYNTHETIC_WORDS.nouns.map((n) => n.toLowerCase());
  const adjectives = SYNTHETIC_WORDS.adjectives.map((a) => a.toLowerCase());
  const kinds: ((i: number) => string)[] = [
    (i) => nouns[i % nouns.length]!,
    (i) => `${adjectives[i % adjectives.length]} ${nouns[(i * 7) % nouns.length]}`,
    (i) => nouns[i % nouns.length]!.slice(0, 3),
    (i) => SYNTHETIC_WORDS.tags[i % SYNTHETIC_WORDS.tags.length]!,
    (i) => `synthetic-${(i % 5) + 1}`,
    (i) => SYNTHETIC_WORDS.materials[i % SYNTHETIC_WORDS.materials.length]!,
    (i) => `${nouns[i % nouns.length]} ${SYNTHETIC_WORDS.purposes[i % SYNTHETIC_WORDS.purposes.length]!.split(' ').at(-1)}`,
    (i) => `zq${i}xv`,
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!(i));
}
