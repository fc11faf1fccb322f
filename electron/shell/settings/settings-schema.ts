import { z } from 'zod';
import { engineSettings, type EngineSettings, type SettingsStore } from '../../engine/settings/settings-store';

/**
 * electron-store's schema for the engine's settings (its `schema` option: a JSON Schema per key), derived from the
 * engine's own zod shape so that the two never disagree.
 */
export function settingsJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(engineSettings, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return schema.properties ?? {};
}

/** The part of electron-store the settings use. */
export interface KeyValueStore {
  readonly store: Record<string, unknown>;
  set(values: Record<string, unknown>): void;
}

/** The engine's SettingsStore over electron-store (in the main process): read whole, changes merged and written. */
export function keyValueSettingsStore(store: KeyValueStore): SettingsStore {
  return {
    read: () => engineSettings.parse(store.store),
    update(changes: Partial<EngineSettings>) {
      const next = engineSettings.parse({ ...store.store, ...changes });
      store.set(next);
      return next;
    },
  };
}
