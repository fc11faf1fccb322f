import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignCard, LibraryPage, Outcome } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { upsertDesigns } from '../../electron/engine/cache/design-writes';
import { cachedUser } from '../../electron/engine/cache/user-reads';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startTestService, type TestService } from '../../harness/local-service';
import { listFormDesign, tempDir } from '../engine/cache/cache-fixtures';
import { createTranslator } from '../../shared/i18n/create-intl';
import { attributionWords } from '../../shared/licenses/attribution-words';

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;
let aliceId: number;
let bobId: number;

/** A design the cache holds without its author's name (a form that lacked `user`), as a listing can leave it. */
function orphan(id: number, name: string, userId: number, license = 'ccby') {
  upsertDesigns(engine.cache.db, [listFormDesign({ id, name, slug: name.toLowerCase(), license, user: undefined, user_id: userId })], 'list', Date.now(), { inListing: true });
}

async function card(name: string): Promise<DesignCard> {
  const outcome = await endpoint.handle('library.page', { query: name, limit: 5 }) as Outcome<LibraryPage>;
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problem));
  return outcome.value.items.find((item) => item.name === name)!;
}

beforeAll(async () => {
  service = await startTestService();
  aliceId = service.addUser('alice').user.id;
  bobId = service.addUser('bob').user.id;
  profile = tempDir('contract-attribution');
  engine = await openEngine({ profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore() });
  endpoint = createContractEndpoint(engine);
});

afterAll(async () => {
  endpoint.close();
  await engine.close();
  await service.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
});

describe('rule 2 through the contract', () => {
  it('resolves an author the cache lacks through the users endpoint, names them, and keeps them for offline', async () => {
    orphan(900_001, 'Sprocket', aliceId);
    expect(cachedUser(engine.cache.reader, aliceId)).toBeNull();
    const sprocket = await card('Sprocket');
    expect(sprocket.attribution).toEqual({ required: true, unavailable: false, text: '“Sprocket” by alice, licensed Creative Commons Attribution' });
    expect(sprocket.author.screenName).toBe('alice');
    expect(cachedUser(engine.cache.reader, aliceId)?.screenName).toBe('alice');
  });

  it('needs no author for a license without attribution', async () => {
    orphan(900_002, 'Washer', 424_242, 'cc0');
    expect((await card('Washer')).attribution).toEqual({ required: false, unavailable: false, text: null });
  });

  it('says "attribution unavailable" when the author cannot be read: unknown to the service, or the service away', async () => {
    orphan(900_003, 'Ghost', 424_242);
    expect((await card('Ghost')).attribution).toEqual({ required: true, unavailable: true, text: null });

    orphan(900_004, 'Bracket', bobId);
    await service.stop();
    const bracket = await card('Bracket');
    expect(bracket.attribution).toEqual({ required: true, unavailable: true, text: null });
    expect(bracket.author.screenName).toBeNull();
    // What was resolved before still names its author offline.
    expect((await card('Sprocket')).attribution.text).toMatch(/by alice/);
  });

  it('is said in the person\'s language from the card\'s own facts, the name, the author and the license\'s title exact', async () => {
    orphan(900_009, 'Tandwiel', aliceId);
    const tandwiel = await card('Tandwiel');
    // In English, the words are the engine's own line, to the character.
    expect(attributionWords(tandwiel)).toBe(tandwiel.attribution.text);
    expect(attributionWords(tandwiel, await createTranslator('nl'))).toBe('“Tandwiel” door alice, gelicentieerd onder Creative Commons Attribution');
    expect(attributionWords(tandwiel, await createTranslator('de'))).toBe('„Tandwiel“ von alice, lizenziert unter Creative Commons Attribution');
    // No line where the engine gives none: unavailable stays unavailable, in any language.
    orphan(900_010, 'Spook', 987_654);
    expect(attributionWords(await card('Spook'), await createTranslator('nl'))).toBeNull();
  });
});
