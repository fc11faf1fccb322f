import type { QueueItem } from './queue-item';

/** An item in words: "The upload of Gear/gear.stl". */
export function describeItem(item: Pick<QueueItem, 'kind' | 'path' | 'folder' | 'id'>): string {
  const what = item.path ?? (item.folder ? `the folder "${item.folder}"` : item.kind === 'update-design' ? 'a design' : `item ${item.id}`);
  const verbs: Record<QueueItem['kind'], string> = {
    upload: 'The upload of', replace: 'The update of', rename: 'The rename of', 'delete-remote': 'The deletion of', 'create-design': 'The design for', 'update-design': 'The edit of',
  };
  return `${verbs[item.kind]} ${what}`;
}

/** What an item is about, as a person names it in a refusal or a confirmation: the file, the folder, or the item. */
export function subjectOf(item: Pick<QueueItem, 'path' | 'folder' | 'id'>): string {
  return item.path ?? (item.folder ? `the folder "${item.folder}"` : `item ${item.id}`);
}
