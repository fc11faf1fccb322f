import { z } from 'zod';
import { avatarFile } from './file-url';
import { timestamp } from './timestamp';

/** Spec §2.4, public form: lists and reads by id or slug. */
export const publicUserShape = {
  id: z.number().int(),
  created_at: timestamp,
  screen_name: z.string(),
  real_name: z.string(),
  avatar_file: avatarFile,
  url: z.string(),
  location: z.string(),
  skills: z.array(z.unknown()),
};

/** Spec §2.4, own form (GET /v1/user/whoami): every public field plus these. */
export const ownUserShape = {
  ...publicUserShape,
  email: z.string(),
  authentication_token: z.string().nullable(),
  updated_at: timestamp,
  slug: z.string(),
  name: z.string(),
  about: z.string(),
  send_comment_on_design_notifications: z.boolean(),
  send_follow_notifications: z.boolean(),
  send_your_design_got_printed_notifications: z.boolean(),
  send_your_design_got_added_to_collection_notifications: z.boolean(),
  send_new_design_by_person_you_follow_notifications: z.boolean(),
  send_collection_updated_follower_notifications: z.boolean(),
  show_random: z.boolean(),
  follow_conversations: z.boolean(),
  last_used_device_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  banned: z.unknown(),
  wants_newsletter: z.boolean(),
  email_token: z.string(),
  donate_url: z.string().nullable(),
  role: z.string(),
};

export const publicUser = z.object(publicUserShape);
export const ownUser = z.object(ownUserShape);
export type PublicUser = z.infer<typeof publicUser>;
export type OwnUser = z.infer<typeof ownUser>;

/** The owner summary embedded in a design: { id, screen_name }. */
export const designOwner = z.object({ id: z.number().int(), screen_name: z.string() });
export type DesignOwner = z.infer<typeof designOwner>;

/** The own-profile fields a user may change through PUT /api/users/whoami. */
export const EDITABLE_PROFILE_FIELDS = [
  'real_name', 'name', 'about', 'location', 'url', 'donate_url', 'wants_newsletter', 'show_random', 'follow_conversations',
  'send_comment_on_design_notifications', 'send_follow_notifications', 'send_your_design_got_printed_notifications',
  'send_your_design_got_added_to_collection_notifications', 'send_new_design_by_person_you_follow_notifications',
  'send_collection_updated_follower_notifications',
] as const;
