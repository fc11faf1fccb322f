import { z } from 'zod';
import type { QueueKind } from '../../../shared';

/**
 * What each kind of queue item carries in its payload, checked before its job runs (as Signal's JobQueue parses a
 * job's data first). A row another version of design-sync wrote, or a damaged one, fails alone with words naming
 * the kind and the field; it never reaches a job as a TypeError, and never holds up the rest of the queue.
 * Unknown fields are kept (a newer version may add some); known ones must have their type.
 */

const text = z.string();
const when = z.union([z.number(), z.string()]).nullable();

/** What the person says to an item waiting for them (QueueStore.confirm sets it). */
const confirmation = { confirmed: z.boolean().optional() };
/** A person cancelled this change of a file after it failed or was refused: the same version is not queued again. */
const dismissal = { dismissed: z.boolean().optional() };

export const UPLOAD_PAYLOAD = z.looseObject({
  /** The name the service gives the record (the file name, NFC). */
  name: text.optional(),
  /** A conflicted copy kept beside the service's version of this path (remote pass). */
  conflictOf: text.optional(),
  localChangedAt: when.optional(),
  remoteChangedAt: when.optional(),
  ...confirmation,
  ...dismissal,
});

export const REPLACE_PAYLOAD = z.looseObject({ ...confirmation, ...dismissal });

export const RENAME_PAYLOAD = z.looseObject({
  fromPath: text.min(1),
  newName: text.min(1),
});

export const DELETE_REMOTE_PAYLOAD = z.looseObject({ ...confirmation });

export const CREATE_DESIGN_PAYLOAD = z.looseObject({
  name: text.optional(),
  excerpt: text.optional(),
  license: text.nullable().optional(),
  description: text.optional(),
  publish: z.boolean().optional(),
  /** The design already made by an earlier attempt: it is never created twice. */
  createdDesignId: z.number().int().positive().optional(),
  ...confirmation,
});

export const DESIGN_EDIT_FIELDS = z.looseObject({
  name: text.optional(),
  excerpt: text.optional(),
  license: text.optional(),
  description: text.optional(),
  primary_image_id: z.number().int().positive().nullable().optional(),
});

export const UPDATE_DESIGN_PAYLOAD = z.looseObject({
  fields: DESIGN_EDIT_FIELDS,
  designName: text,
  /** The design as the service held it once the edit was sent (for the cache). */
  answer: z.unknown().optional(),
});

export const PAYLOADS = {
  upload: UPLOAD_PAYLOAD,
  replace: REPLACE_PAYLOAD,
  rename: RENAME_PAYLOAD,
  'delete-remote': DELETE_REMOTE_PAYLOAD,
  'create-design': CREATE_DESIGN_PAYLOAD,
  'update-design': UPDATE_DESIGN_PAYLOAD,
} as const satisfies Record<QueueKind, z.ZodType>;

export type PayloadOf<K extends QueueKind> = z.infer<(typeof PAYLOADS)[K]>;
export type UploadPayload = PayloadOf<'upload'>;
export type RenamePayload = PayloadOf<'rename'>;
export type CreateDesignPayload = PayloadOf<'create-design'>;
export type DesignEditFields = z.infer<typeof DESIGN_EDIT_FIELDS>;
export type DesignEditPayload = PayloadOf<'update-design'>;
