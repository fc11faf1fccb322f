/**
 * `--synthetic <n>`: appends n published designs straight into the database (no files, no images), for
 * benchmarks of paging, search and the client's cache. One transaction, prepared statements.
 */
import { LICENSE_CODES } from '../../shared';
import type { ServiceContext } from '../server/service-context';
import { createUser, findUserByScreenName } from '../users/user-accounts';
import { seededRandom } from './seeded-random';

export const SYNTHETIC_MAX_COUNT = 5_000_000;
export const SYNTHETIC_USERS = ['synthetic-1', 'synthetic-2', 'synthetic-3', 'synthetic-4', 'synthetic-5'] as const;
export const SYNTHETIC_SLUG_PREFIX = 'synthetic-design-';

/** Word lists the names and texts are drawn from; exported so tests and benchmarks can search for them. */
export const SYNTHETIC_WORDS = {
  adjectives: [
    'Compact', 'Parametric', 'Modular', 'Folding', 'Stackable', 'Hinged', 'Threaded', 'Snap-fit', 'Reinforced', 'Minimal',
    'Ribbed', 'Twisted', 'Slotted', 'Magnetic', 'Weatherproof', 'Ergonomic', 'Low-poly', 'Honeycomb', 'Tapered', 'Vented',
  ],
  nouns: [
    'Carabiner', 'Hinge', 'Knob', 'Bracket', 'Spacer', 'Enclosure', 'Organizer', 'Coaster', 'Hook', 'Clamp', 'Funnel',
    'Bobbin', 'Trellis', 'Latch', 'Bushing', 'Pulley', 'Grommet', 'Caddy', 'Bezel', 'Sprocket', 'Manifold', 'Dovetail',
    'Trivet', 'Ratchet', 'Pegboard', 'Lanyard', 'Soap Dish', 'Drawer Pull', 'Lens Cap', 'Fan Duct',
  ],
  suffixes: ['', 'Mk II', 'v2', 'v3', 'Remix', 'XL', 'Mini', 'Pro', 'Lite', 'Duo'],
  purposes: [
    'the workshop', 'a kitchen drawer', 'camping trips', 'a 2020 extrusion frame', 'Raspberry Pi projects', 'the garden shed',
    'bike repairs', 'a home office', 'aquarium maintenance', 'model railways', 'a sewing table', 'van conversions',
  ],
  materials: ['PLA', 'PETG', 'ASA', 'TPU 95A', 'PA12', 'PLA+', 'ABS', 'PC blend'],
  features: [
    'prints without supports', 'tolerances of 0.2 mm', 'uses M3 heat-set inserts', 'snaps together without glue',
    'designed for a 0.4 mm nozzle', 'fits a 180 mm bed', 'countersunk screw holes', 'chamfered first layer',
    'tested with 5 kg loads', 'parametric source included', 'prints in under an hour', 'no bridging over 10 mm',
  ],
  tags: [
    'synthetic', 'benchmark', 'workshop', 'household', 'organizer', 'mechanical', 'outdoor', 'desk', 'parametric',
    'spare-part', 'garden', 'electronics', 'kitchen', 'tool', 'toy', 'storage',
  ],
} as const;

const DAY = 24 * 60 * 60 * 1000;
const SPREAD = 3 * 365 * DAY;

function validCount(count: number): number {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > SYNTHETIC_MAX_COUNT) {
    throw new RangeError(`seedSynthetic: count must be a whole number from 1 to ${SYNTHETIC_MAX_COUNT}, got ${String(count)}`);
  }
  return count;
}

function syntheticUserIds(ctx: ServiceContext): number[] {
  return SYNTHETIC_USERS.map((screenName, i) => {
    const existing = findUserByScreenName(ctx.db, screenName);
    if (existing) return existing.id;
    return createUser(ctx.db, {
      screenName, password: screenName, realName: `Synthetic Maker ${i + 1}`, location: 'Benchmark City',
      about: '<p>Generated for benchmarks.</p>', skills: ['benchmarking'], now: ctx.now(),
    }).id;
  });
}

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)]!;

/** Appends `count` published designs; slugs continue after the highest synthetic-design-<n> already there. */
export function seedSynthetic(ctx: ServiceContext, count: number): void {
  validCount(count);
  const db = ctx.db;
  const userIds = syntheticUserIds(ctx);
  const { highest } = db
    .prepare(`SELECT coalesce(max(CAST(substr(slug, ?) AS INTEGER)), 0) AS highest FROM designs WHERE slug LIKE ?`)
    .get(SYNTHETIC_SLUG_PREFIX.length + 1, `${SYNTHETIC_SLUG_PREFIX}%`) as { highest: number };

  const insertTag = db.prepare('INSERT INTO tags (name) VALUES (?) ON CONFLICT(name) DO NOTHING');
  const findTag = db.prepare('SELECT id FROM tags WHERE name = ?');
  const insertDesign = db.prepare(
    `INSERT INTO designs (user_id, name, slug, description, excerpt, license, state, design_category_id, materials,
       last_trending_popularity, current_delta_popularity, download_count, documents_download_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'published', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const tagDesign = db.prepare('INSERT OR IGNORE INTO taggings (design_id, tag_id) VALUES (?, ?)');

  const random = seededRandom(highest + 1);
  const { adjectives, nouns, suffixes, purposes, materials, features, tags } = SYNTHETIC_WORDS;
  const now = ctx.now();
  const start = now - SPREAD;

  db.transaction(() => {
    const tagIds = tags.map((name) => {
      insertTag.run(name);
      return (findTag.get(name) as { id: number }).id;
    });
    for (let i = 0; i < count; i++) {
      const n = highest + 1 + i;
      const adjective = pick(adjectives, random);
      const noun = pick(nouns, random);
      const suffix = pick(suffixes, random);
      const material = pick(materials, random);
      const purpose = pick(purposes, random);
      const name = `${adjective} ${noun}${suffix ? ` ${suffix}` : ''} #${n}`;
      const excerpt = `A ${adjective.toLowerCase()} ${noun.toLowerCase()} for ${purpose}, printed in ${material}.`;
      const description = `<p>${excerpt}</p><ul><li>${pick(features, random)}</li><li>${pick(features, random)}</li></ul><p>Synthetic benchmark design ${n}.</p>`;
      // Oldest first, so ids grow with created_at; a little jitter keeps the dates from looking machine-made.
      const createdAt = Math.round(start + ((i + random() * 0.9) / count) * (SPREAD - DAY));
      const updatedAt = Math.min(now, createdAt + Math.round(random() * random() * 90 * DAY));
      const popularity = Math.round(random() * random() * 5000) / 10;
      const downloads = Math.round(popularity * (1 + random() * 9));
      const { lastInsertRowid } = insertDesign.run(
        userIds[n % userIds.length], name, `${SYNTHETIC_SLUG_PREFIX}${n}`, description, excerpt,
        LICENSE_CODES[Math.floor(random() * LICENSE_CODES.length)], 1 + (n % 12), material,
        popularity, Math.round((random() * 30 - 5) * 10) / 10, downloads, Math.round(downloads * 0.6), createdAt, updatedAt,
      );
      const first = Math.floor(random() * tagIds.length);
      const tagCount = 2 + Math.floor(random() * 2);
      for (let t = 0; t < tagCount; t++) tagDesign.run(lastInsertRowid, tagIds[(first + t * 5) % tagIds.length]);
    }
  })();
}
