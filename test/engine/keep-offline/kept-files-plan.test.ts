import { describe, expect, it } from 'vitest';
import { keptFilesOf, planKeptFiles } from '../../../electron/engine/keep-offline/kept-files-plan';

/** A small seeded generator (mulberry32): the same seed, the same designs. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomDesign(next: () => number) {
  const url = () => `/uploads/${Math.floor(next() * 12)}.bin`;
  const images = Array.from({ length: Math.floor(next() * 4) }, (_, i) => ({
    id: i + 1,
    localFiles: {},
    raw: {
      name: next() < 0.8 ? `Image ${i}` : undefined,
      updated_at: next() < 0.7 ? `2026-01-0${1 + Math.floor(next() * 9)}T00:00:00Z` : undefined,
      file: { grid: next() < 0.9 ? { url: url() } : {}, large: next() < 0.9 ? { url: url() } : undefined },
    },
  }));
  const documents = Array.from({ length: Math.floor(next() * 4) }, (_, i) => ({
    id: 100 + i,
    name: next() < 0.8 ? `Document ${i}` : '',
    updated_at: next() < 0.7 ? '2026-02-01T00:00:00Z' : undefined,
    file: next() < 0.9 ? { url: url() } : undefined,
  }));
  return { images, documents } as unknown as Parameters<typeof keptFilesOf>[0];
}

describe('which files a design kept offline needs, and which to download', () => {
  it('names each image\'s grid and large renditions and each document\'s file once, with its version and a name', () => {
    const files = keptFilesOf({
      images: [{ id: 7, localFiles: {}, raw: { name: 'Front', updated_at: 'v1', file: { grid: { url: '/g.jpg' }, large: { url: '/l.jpg' }, small: { url: '/s.jpg' } } } }],
      documents: [{ id: 9, name: 'Part (STL)', updated_at: 'v2', file: { url: '/part.stl' } }, { id: 10, file: { url: '/part.stl' } }, { id: 11, name: 'No file' }],
    });
    expect(files).toEqual([
      { url: '/g.jpg', version: 'v1', kind: 'image', name: 'Front' },
      { url: '/l.jpg', version: 'v1', kind: 'image', name: 'Front' },
      { url: '/part.stl', version: 'v2', kind: 'document', name: 'Part (STL)' },
    ]);
  });

  it('on random designs and caches: every needed file is missing exactly when the cache lacks it at its version, urls never repeat', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const next = random(seed);
      const design = randomDesign(next);
      const held = new Map<string, string | null>();
      for (let i = 0; i < 6; i++) held.set(`/uploads/${Math.floor(next() * 12)}.bin`, next() < 0.5 ? null : '2026-02-01T00:00:00Z');
      const has = (url: string, version: string | null) => held.has(url) && held.get(url) === version;
      const needed = keptFilesOf(design);
      const plan = planKeptFiles(needed, has);
      const urls = plan.needed.map((file) => file.url);
      expect(new Set(urls).size, `seed ${seed}`).toBe(urls.length);
      expect(plan.missing.every((file) => plan.needed.includes(file)), `seed ${seed}`).toBe(true);
      for (const file of plan.needed) expect(plan.missing.includes(file), `seed ${seed} ${file.url}`).toBe(!has(file.url, file.version));
      expect(plan.needed.every((file) => file.name.trim() !== ''), `seed ${seed}`).toBe(true);
    }
  });
});
