import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ContractEndpoint } from '../../../electron/engine/contract/contract-endpoint';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { said } from '../../../electron/engine/queue/said';
import { migrateSync } from '../../../electron/engine/sync-state/sync-database';
import { createTranslator } from '../../../shared/i18n/create-intl';
import { engineWordsText } from '../../../shared/i18n/engine-words';
import type { ActivityView, QueueView } from '../../../shared';
import { sendAll, useEngineWithFolder } from './engine-with-folder';
import { FIXTURES, queueWorld } from './queue-fixtures';

const given = useEngineWithFolder('wordsmith');
const { engineWithFolder } = given;

async function queueView(window: ContractEndpoint): Promise<QueueView> {
  const outcome = await window.handle('queue.list', {});
  if (!outcome.ok) throw new Error(`queue.list failed: ${JSON.stringify(outcome)}`);
  return outcome.value as QueueView;
}

describe('activity lines and queue reasons as facts', () => {
  it('an upload\'s line and a failed edit\'s reason are stored with their message ids and values, and reach the window with their English', async () => {
    const { engine, window, folder } = await engineWithFolder('Facts gear');
    const path = `${folder}/gear.stl`;
    copyFileSync(join(FIXTURES, 'models/cube.stl'), join(engine.sync.syncParts().sync.root.current()!.path, folder, 'gear.stl'));
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    // An edit of a design that is no longer on the service: it fails, saying so.
    const gone = await given.api.createDesign({ name: 'Clamp', excerpt: 'x' });
    await given.api.deleteDesign(gone.id);
    const edit = engine.queue.enqueueDesignEdit(gone.id, { name: 'Clamp two' }, 'Clamp');
    await sendAll(engine);

    const view = await queueView(window);
    const uploaded = view.activity.find((line: ActivityView) => line.path === path && line.words?.id === 'activity.queue.uploaded');
    expect(uploaded).toMatchObject({ level: 'info', message: `Uploaded ${path}.`, words: { id: 'activity.queue.uploaded', values: { path } } });
    const failed = view.items.find((item) => item.id === edit.id);
    expect(failed).toMatchObject({
      state: 'failed',
      reason: 'The design “Clamp” is no longer on the service (deleted, or no longer yours): the edit made here was not sent.',
      reasonWords: { id: 'queue.reason.editedDesignGone', values: { name: 'Clamp' } },
    });
    // The same facts, as stored, are what a front end words: in German here.
    const german = await createTranslator('de');
    expect(engineWordsText(german, failed!.reasonWords!)).toBe(
      'Das Design „Clamp“ ist nicht mehr auf dem Dienst (gelöscht oder nicht mehr Ihres): Die hier gemachte Änderung wurde nicht gesendet.',
    );
    expect(engineWordsText(german, uploaded!.words!)).toBe(`${path} hochgeladen.`);
  });

  it('a refused edit names its fields with the labels of the person\'s language, the service\'s own words kept', async () => {
    const world = await queueWorld(given.service.url, given.token);
    given.afterTest(() => world.dispose());
    const design = await world.api.createDesign({ name: 'Gear', excerpt: 'A gear' });
    const edit = world.store.enqueueDesignEdit(design.id, { name: 'Gear two', excerpt: '' }, 'Gear').id;
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    const refused = world.store.get(edit)!;
    expect(refused).toMatchObject({ state: 'failed', reason: 'The service refused the edit of “Gear”: Summary can\'t be blank.' });
    expect(engineWordsText(await createTranslator('de'), refused.reasonWords!)).toBe('Der Dienst hat die Änderung von „Gear“ abgelehnt: Zusammenfassung: can\'t be blank.');
  });

  it('a sentence inside a sentence is kept as facts too, and worded in the same language', async () => {
    const db = new Database(':memory:');
    migrateSync(db);
    const store = new QueueStore(db);
    const item = store.enqueue({ kind: 'delete-remote', path: 'Gear/old.stl', folder: 'Gear', designId: 1, fileKind: 'document', remoteId: 9 });
    store.claimNext();
    store.settle(item.id, { state: 'failed', reason: said('queue.reason.failedUnexpectedly', { item: said('activity.item.described', { kind: 'deleteRemote', what: 'Gear/old.stl' }) }) });
    const stored = store.get(item.id)!;
    expect(stored.reason).toBe('The deletion of Gear/old.stl failed unexpectedly: it is tried again in a minute (the engine log has the details).');
    expect(stored.reasonWords).toEqual({
      id: 'queue.reason.failedUnexpectedly',
      values: { item: { id: 'activity.item.described', values: { kind: 'deleteRemote', what: 'Gear/old.stl' } } },
    });
    expect(engineWordsText(await createTranslator('nl'), stored.reasonWords!)).toBe(
      'Het verwijderen van Gear/old.stl is onverwacht mislukt: het wordt over een minuut opnieuw geprobeerd (het engine-logboek bevat de details).',
    );
  });

  it('the queue\'s refusals reach the window as facts, said in Dutch and German with no English left, their message English', async () => {
    const { engine, window, folder } = await engineWithFolder('Refused gear');
    const path = `${folder}/gear.stl`;
    copyFileSync(join(FIXTURES, 'models/cube.stl'), join(engine.sync.syncParts().sync.root.current()!.path, folder, 'gear.stl'));
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    const upload = (await queueView(window)).items.find((item) => item.path === path)!;
    const problemOf = async (name: 'queue.cancel' | 'queue.confirmDelete', input: Record<string, unknown>) => {
      const outcome = await window.handle(name, input);
      if (outcome.ok) throw new Error(`${name} was not refused`);
      return outcome.problem;
    };
    const [dutch, german] = [await createTranslator('nl'), await createTranslator('de')];

    const none = await problemOf('queue.cancel', { target: 999_999 });
    expect(none).toMatchObject({ kind: 'not-found', message: 'There is no queue item 999999.' });
    expect(engineWordsText(dutch, none.words!)).toBe('Er is geen item 999999 in de wachtrij.');

    const nothing = await problemOf('queue.confirmDelete', { id: upload.id });
    expect(nothing).toMatchObject({ kind: 'conflict', message: `Item ${upload.id} (${path}) is waiting: there is no deletion to confirm.` });
    expect(engineWordsText(german, nothing.words!)).toBe(`Eintrag ${upload.id} (${path}) wartet: Es gibt keine Löschung zu bestätigen.`);

    expect(await window.handle('queue.cancel', { target: upload.id })).toMatchObject({ ok: true });
    const ended = await problemOf('queue.cancel', { target: upload.id });
    expect(ended.message).toBe(`Item ${upload.id} (${path}) is already cancelled.`);
    expect(engineWordsText(dutch, ended.words!)).toBe(`Item ${upload.id} (${path}) is al geannuleerd.`);
    expect(engineWordsText(german, ended.words!)).toBe(`Eintrag ${upload.id} (${path}) ist bereits abgebrochen.`);
  });

  it('a line whose stored facts cannot be read, or that has none, is shown as its English, and nothing is lost', () => {
    const db = new Database(':memory:');
    migrateSync(db);
    const store = new QueueStore(db);
    store.log('info', said('activity.queue.uploaded', { path: 'Gear/gear.stl' }), 'Gear/gear.stl');
    db.prepare(`INSERT INTO activity (at, level, message, words, path) VALUES (1, 'warning', 'Written by another version.', '{"id":"activity.not.a.key"}', NULL)`).run();
    db.prepare(`INSERT INTO activity (at, level, message, words, path) VALUES (2, 'error', 'Damaged.', '{not json', NULL)`).run();
    db.prepare(`INSERT INTO activity (at, level, message, path) VALUES (3, 'info', 'Written before facts were kept.', NULL)`).run();
    const lines = store.recentActivity(10).map(({ message, words }) => ({ message, words }));
    expect(lines).toEqual([
      { message: 'Written before facts were kept.', words: null },
      { message: 'Damaged.', words: null },
      { message: 'Written by another version.', words: null },
      { message: 'Uploaded Gear/gear.stl.', words: { id: 'activity.queue.uploaded', values: { path: 'Gear/gear.stl' } } },
    ]);
  });
});
