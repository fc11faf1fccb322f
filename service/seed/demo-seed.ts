/**
 * `--demo`: six people, 64 published designs over all ten licenses, three drafts of demo's, and real files.
 * Users, follows, tags and the historical numbers (dates, popularity, download counts) go straight into the
 * database; designs, images and documents go through the running service's own HTTP API, so the seed uses
 * the same upload path as the client does.
 */
import { LICENSE_CODES, type LicenseCode } from '../../shared';
import { findApplication, forgetAuthorizations, grantAuthorization, REGISTERED_APPLICATION } from '../authorization/integrations';
import { setDesignTags } from '../designs/design-repository';
import { removeStorage } from '../media/file-store';
import { storeAvatar } from '../media/avatars';
import type { ServiceContext } from '../server/service-context';
import { createUser, findUserByScreenName } from '../users/user-accounts';
import { DEMO_ATTRIBUTIONS, DEMO_DESIGNS, DEMO_FOLLOWS, DEMO_USERS, type DemoDesign } from './demo-catalogue';
import { renderAvatar, renderPreview, type PreviewFormat } from './preview-images';
import { seededRandom } from './seeded-random';
import { boundingBox, buildShape, toBinaryStl, toObj, type Mesh } from './stl-shapes';

export interface DemoSeedResult {
  created: boolean;
  users: number;
  designs: number;
}

const DAY = 24 * 60 * 60 * 1000;
/** How many designs upload their files at the same time. */
const CONCURRENCY = 4;

interface PlannedDesign extends DemoDesign {
  license: LicenseCode;
  createdAt: number;
  updatedAt: number;
  images: { format: PreviewFormat; width: number; height: number; azimuth: number; elevation: number }[];
  hue: number;
  popularity: number;
  delta: number;
  downloads: number;
}

interface Created {
  userIds: number[];
  designIds: number[];
}

/** Decides everything random up front, from a fixed seed, so every demo data dir looks the same apart from "now". */
function plan(now: number): PlannedDesign[] {
  const random = seededRandom(20240611);
  const published = DEMO_DESIGNS.filter((d) => !d.draft);
  const licenseOf = new Map<DemoDesign, LicenseCode>();
  // 3 is coprime with 10, so consecutive designs of one owner get different licenses and every code is used 6–7 times.
  published.forEach((d, i) => licenseOf.set(d, LICENSE_CODES[(i * 3) % LICENSE_CODES.length]!));
  const sizes = [[800, 600], [800, 600], [1024, 768], [900, 600], [640, 480]] as const;
  const planned = DEMO_DESIGNS.map((d, i): PlannedDesign => {
    const age = d.draft ? 2 + random() * 50 : 20 + random() * 700;
    const createdAt = Math.round(now - age * DAY);
    const imageCount = 1 + Math.floor(random() * 3);
    const images = Array.from({ length: imageCount }, (_, n) => {
      const [width, height] = sizes[Math.floor(random() * sizes.length)]!;
      const roll = random();
      const format: PreviewFormat = n > 0 && i % 17 === 5 ? 'tiff' : roll < 0.6 ? 'jpg' : 'png';
      return { format, width, height, azimuth: -40 + n * 75 + random() * 20, elevation: n === 2 ? 70 : 22 + random() * 15 };
    });
    const popularity = Math.round(Math.pow(random(), 2) * 900 * 10) / 10;
    return {
      ...d,
      license: licenseOf.get(d) ?? 'ccbysa',
      createdAt,
      updatedAt: Math.min(now - DAY / 2, createdAt + Math.round(random() * random() * 120 * DAY)),
      // Drawn all the same, so that every other design stays as it was.
      images: d.noImages ? [] : images,
      hue: Math.floor(random() * 360),
      popularity: d.draft ? 0 : popularity,
      delta: d.draft ? 0 : Math.round((random() * 40 - 8) * 10) / 10,
      downloads: d.draft ? 0 : Math.round(popularity * (2 + random() * 8) + random() * 40),
    };
  });
  // Create the oldest first, so ids grow with created_at as on a real service.
  return planned.sort((a, b) => a.createdAt - b.createdAt);
}

function describe(d: PlannedDesign, mesh: Mesh): string {
  const { min, max } = boundingBox(mesh);
  const size = [0, 1, 2].map((axis) => Math.round((max[axis]! - min[axis]!) * 10) / 10).join(' × ');
  return [
    `<p>${escapeHtml(d.excerpt)}</p>`,
    '<h3>Features</h3>',
    `<ul>${d.features.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>`,
    '<h3>Printing</h3>',
    `<ul><li>Material: ${escapeHtml(d.material)}</li><li>Size: ${size} mm</li><li>Supports: ${d.shape.kind === 'stand' || d.shape.kind === 'dome' ? 'none, print on the flat face' : 'none'}</li></ul>`,
    '<p>Comments and makes are welcome. If you remix it, please link back.</p>',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

function readme(d: PlannedDesign, mesh: Mesh): string {
  const { min, max } = boundingBox(mesh);
  return [
    `# ${d.name}`, '', d.excerpt, '', '## Features', '', ...d.features.map((f) => `- ${f}`), '',
    '## Print settings', '', `- Material: ${d.material}`,
    `- Bounding box: ${[0, 1, 2].map((axis) => (max[axis]! - min[axis]!).toFixed(1)).join(' x ')} mm`,
    `- Triangles: ${mesh.triangles.length}`, '', `License: ${d.license}`, '',
  ].join('\n');
}

function notes(d: PlannedDesign): string {
  return [`${d.name} - print notes`, '', ...d.features.map((f, i) => `${i + 1}. ${f}`), '', `Material: ${d.material}`, ''].join('\n');
}

function fileSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

const MIME: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', tiff: 'image/tiff', stl: 'model/stl', obj: 'model/obj', md: 'text/markdown', txt: 'text/plain' };

class SeedHttp {
  constructor(private readonly origin: string) {}

  async send(method: string, path: string, token: string, body: FormData | object, what: string): Promise<unknown> {
    const url = new URL(path, this.origin);
    url.searchParams.set('auth_token', token);
    const init: RequestInit = body instanceof FormData
      ? { method, body }
      : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      throw new Error(`demo seed: ${method} ${path} (${what}) could not reach the service: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    const expected = method === 'POST' ? 201 : 204;
    if (response.status !== expected) {
      throw new Error(`demo seed: ${method} ${path} (${what}) answered ${response.status} ${response.statusText}, expected ${expected}: ${text.slice(0, 300)}`);
    }
    if (method !== 'POST') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`demo seed: ${method} ${path} (${what}) answered ${response.status} without a JSON body`);
    }
    if (!parsed || typeof parsed !== 'object' || typeof (parsed as { id?: unknown }).id !== 'number') {
      throw new Error(`demo seed: ${method} ${path} (${what}) answered ${response.status} without a numeric id: ${text.slice(0, 300)}`);
    }
    return parsed;
  }

  async upload(designId: number, kind: 'image' | 'document', token: string, file: { name: string; fileName: string; description: string; data: Buffer }, what: string): Promise<number> {
    const form = new FormData();
    form.append(`${kind}[name]`, file.name);
    form.append(`${kind}[description]`, file.description);
    const extension = file.fileName.slice(file.fileName.lastIndexOf('.') + 1);
    form.append(`${kind}[file]`, new Blob([file.data], { type: MIME[extension] ?? 'application/octet-stream' }), file.fileName);
    const body = (await this.send('POST', `/v1/designs/${designId}/${kind}s`, token, form, what)) as { id: number };
    return body.id;
  }
}

/**
 * Runs `work` over the items, `limit` at a time. After a failure no new item starts, and the call settles only
 * once the items already started have finished, so nothing is left running behind a rejected seed.
 */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failure && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  if (failure) throw failure.error;
}

const VIEW_NAMES = ['Isometric view', 'Side view', 'Top view'];

async function uploadFiles(http: SeedHttp, d: PlannedDesign, designId: number, slug: string, token: string): Promise<number | null> {
  const mesh = buildShape(d.shape);
  let primaryImageId: number | undefined;
  for (const [n, image] of d.images.entries()) {
    const data = await renderPreview(mesh, {
      title: d.name, caption: `${VIEW_NAMES[n]} · ${d.license.toUpperCase()}`, hue: d.hue,
      azimuth: image.azimuth, elevation: image.elevation, width: image.width, height: image.height, format: image.format,
    });
    const id = await http.upload(designId, 'image', token, {
      name: VIEW_NAMES[n]!, fileName: `${slug}-${n + 1}.${image.format}`,
      description: `<p>${VIEW_NAMES[n]} of the printed part, rendered from the STL.</p>`, data,
    }, `image ${n + 1} of "${d.name}"`);
    primaryImageId ??= id;
  }

  const main = toBinaryStl(mesh, `${d.name} - design-sync demo`);
  await http.upload(designId, 'document', token, {
    name: `${d.name} (STL)`, fileName: `${slug}.stl`, data: main,
    description: `<p>Binary STL, ${mesh.triangles.length} triangles, millimetres.</p>`,
  }, `STL of "${d.name}"`);
  for (const extra of d.extras ?? []) {
    if (extra.kind === 'stl') {
      const part = buildShape(extra.shape);
      await http.upload(designId, 'document', token, {
        name: extra.name, fileName: `${fileSlug(extra.name)}.stl`, description: extra.description,
        data: toBinaryStl(part, `${extra.name} - design-sync demo`),
      }, `STL "${extra.name}" of "${d.name}"`);
    } else if (extra.kind === 'obj') {
      await http.upload(designId, 'document', token, {
        name: `${d.name} (OBJ)`, fileName: `${slug}.obj`, description: '<p>The same model as Wavefront OBJ, for tools that prefer it.</p>',
        data: Buffer.from(toObj(mesh, d.name)),
      }, `OBJ of "${d.name}"`);
    } else if (extra.kind === 'readme') {
      await http.upload(designId, 'document', token, {
        name: 'README', fileName: 'README.md', description: '<p>Print settings and assembly notes.</p>', data: Buffer.from(readme(d, mesh)),
      }, `README of "${d.name}"`);
    } else {
      await http.upload(designId, 'document', token, {
        name: 'Print notes', fileName: 'print-notes.txt', description: '<p>Plain-text notes.</p>', data: Buffer.from(notes(d)),
      }, `notes of "${d.name}"`);
    }
  }
  if (primaryImageId === undefined && !d.noImages) throw new Error(`demo seed: "${d.name}" got no image`);
  return primaryImageId ?? null;
}

/** Undoes a failed seed so that the next start tries again instead of finding a half-seeded `demo`. */
function rollback(ctx: ServiceContext, created: Created): void {
  const db = ctx.db;
  const designs = JSON.stringify(created.designIds);
  const users = JSON.stringify(created.userIds);
  const stored = db
    .prepare(`SELECT storage_key FROM images WHERE design_id IN (SELECT value FROM json_each(@designs))
              UNION ALL SELECT storage_key FROM documents WHERE design_id IN (SELECT value FROM json_each(@designs))`)
    .all({ designs }) as { storage_key: string }[];
  const avatars = db
    .prepare('SELECT avatar_image_path AS storage_key FROM users WHERE avatar_image_path IS NOT NULL AND id IN (SELECT value FROM json_each(?))')
    .all(users) as { storage_key: string }[];
  db.transaction(() => {
    for (const table of ['images', 'documents', 'taggings']) db.prepare(`DELETE FROM ${table} WHERE design_id IN (SELECT value FROM json_each(?))`).run(designs);
    db.prepare('DELETE FROM designs WHERE id IN (SELECT value FROM json_each(?)) OR user_id IN (SELECT value FROM json_each(?))').run(designs, users);
    db.prepare('DELETE FROM follows WHERE follower_id IN (SELECT value FROM json_each(?)) OR followed_id IN (SELECT value FROM json_each(?))').run(users, users);
    for (const table of ['authorized_integrations', 'web_sessions']) db.prepare(`DELETE FROM ${table} WHERE user_id IN (SELECT value FROM json_each(?))`).run(users);
    db.prepare('DELETE FROM users WHERE id IN (SELECT value FROM json_each(?))').run(users);
  })();
  for (const { storage_key } of [...stored, ...avatars]) removeStorage(ctx, storage_key);
}

/**
 * Seeds the demo data once: if the user `demo` exists (the data dir survives restarts) nothing changes.
 * Needs the service listening (ctx.origin), because designs and their files are created over HTTP.
 */
export async function seedDemo(ctx: ServiceContext): Promise<DemoSeedResult> {
  if (findUserByScreenName(ctx.db, 'demo')) return { created: false, users: 0, designs: 0 };
  if (!ctx.origin) throw new Error('demo seed: the service is not listening yet (ctx.origin is empty); seed after it starts');
  const app = findApplication(ctx.db, REGISTERED_APPLICATION);
  if (!app) throw new Error(`demo seed: the application ${REGISTERED_APPLICATION} is not registered`);

  const now = ctx.now();
  const planned = plan(now);
  const created: Created = { userIds: [], designIds: [] };
  try {
    const random = seededRandom(7);
    const userIds = new Map<string, number>();
    ctx.db.transaction(() => {
      for (const person of DEMO_USERS) {
        const user = createUser(ctx.db, {
          screenName: person.screenName, password: person.password, realName: person.realName, location: person.location,
          url: person.url, about: person.about, skills: person.skills, now,
        });
        const joined = Math.round(now - (730 + random() * 400) * DAY);
        ctx.db.prepare('UPDATE users SET created_at = ?, updated_at = ? WHERE id = ?').run(joined, Math.round(now - random() * 60 * DAY), user.id);
        userIds.set(person.screenName, user.id);
        created.userIds.push(user.id);
      }
      const follow = ctx.db.prepare('INSERT INTO follows (follower_id, followed_id, created_at) VALUES (?, ?, ?)');
      for (const [follower, followed] of DEMO_FOLLOWS) follow.run(userIds.get(follower), userIds.get(followed), Math.round(now - random() * 300 * DAY));
    })();

    await Promise.all(DEMO_USERS.map(async (person) => storeAvatar(ctx, userIds.get(person.screenName)!, await renderAvatar(person.realName, person.hue))));

    // The seed publishes through the real API with tokens of its own; they are forgotten once it is done (below).
    const grants = [...userIds].map(([name, id]) => [name, grantAuthorization(ctx.db, id, app.id, now)] as const);
    const tokens = new Map(grants.map(([name, grant]) => [name, grant.token]));
    const http = new SeedHttp(ctx.origin);

    // Designs one after the other (ids in date order), then their files a few at a time.
    const designs: { plan: PlannedDesign; id: number; slug: string; token: string }[] = [];
    for (const d of planned) {
      const token = tokens.get(d.owner)!;
      const body = (await http.send('POST', '/v1/designs', token, {
        design: { name: d.name, excerpt: d.excerpt, license: d.license, description: describe(d, buildShape(d.shape)) },
      }, `design "${d.name}"`)) as { id: number; slug: string };
      created.designIds.push(body.id);
      designs.push({ plan: d, id: body.id, slug: body.slug, token });
    }

    await inBatches(designs, CONCURRENCY, async ({ plan: d, id, slug, token }) => {
      const primaryImageId = await uploadFiles(http, d, id, slug, token);
      const cover = primaryImageId === null ? {} : { primary_image_id: primaryImageId };
      const changes = d.draft ? cover : { state: 'published', ...cover };
      if (Object.keys(changes).length === 0) return;
      await http.send('PUT', `/v1/designs/${id}`, token, { design: changes }, `${d.draft ? 'primary image of' : 'publishing'} "${d.name}"`);
    });

    // What the API does not carry (materials, tags, attribution) and history (dates, popularity, downloads).
    ctx.db.transaction(() => {
      const update = ctx.db.prepare(
        `UPDATE designs SET materials = @materials, attribution = @attribution, created_at = @createdAt, updated_at = @updatedAt, last_trending_popularity = @popularity,
         current_delta_popularity = @delta, download_count = @downloads, documents_download_count = @documentDownloads WHERE id = @id`,
      );
      const files = ['images', 'documents'].map((table) => ctx.db.prepare(`UPDATE ${table} SET created_at = @at + (id % 97) * 1000, updated_at = @at + (id % 97) * 1000 WHERE design_id = @id`));
      for (const { plan: d, id } of designs) {
        update.run({
          id, materials: d.material, attribution: DEMO_ATTRIBUTIONS[d.name] ?? null, createdAt: d.createdAt, updatedAt: d.updatedAt, popularity: d.popularity, delta: d.delta,
          downloads: d.downloads, documentDownloads: Math.round(d.downloads * 0.6),
        });
        for (const statement of files) statement.run({ id, at: d.createdAt + 60_000 });
        setDesignTags(ctx.db, id, d.tags);
      }
      // Nobody authorized design-sync: a newcomer's first sign-in sees the service's Allow/Deny page, as a real one would.
      forgetAuthorizations(ctx.db, grants.map(([, grant]) => grant.id));
    })();

    return { created: true, users: DEMO_USERS.length, designs: designs.length };
  } catch (error) {
    try {
      rollback(ctx, created);
    } catch (rollbackError) {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (and undoing the partial seed failed: ${String(rollbackError)})`, { cause: error });
    }
    throw error;
  }
}
