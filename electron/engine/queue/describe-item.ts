import type { QueueItem } from './queue-item';
import { said, type Said } from './said';

/** What an item is about in a sentence of ours: the file, the folder, a design being edited, or the item. */
export function itemSubject(item: Pick<QueueItem, 'kind' | 'path' | 'folder' | 'id'>): Said | string {
  if (item.path) return item.path;
  if (item.folder) return said('activity.item.folder', { folder: item.folder });
  return item.kind === 'update-design' ? said('activity.item.aDesign') : said('activity.item.numbered', { id: item.id });
}

/** A queue kind as a select's key of the catalogs ("delete-remote" → "deleteRemote"). */
export const kindCode = (kind: QueueItem['kind']): string => kind.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** An item in words: "The upload of Gear/gear.stl". */
export function describeItem(item: Pick<QueueItem, 'kind' | 'path' | 'folder' | 'id'>): Said {
  const subject = itemSubject(item);
  return said('activity.item.described', { kind: kindCode(item.kind), what: subject });
}

/** What an item is about, as a person names it in a refusal or a confirmation: the file, the folder, or the item. */
export function subjectOf(item: Pick<QueueItem, 'path' | 'folder' | 'id'>): string {
  return item.path ?? (item.folder ? `the folder "${item.folder}"` : `item ${item.id}`);
}
