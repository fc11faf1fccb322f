import { formatTimestamp, type OwnUser, type PublicUser } from '../../shared';
import type { UserRow } from '../database/rows';
import { avatarFileObject } from '../media/urls';

/** Own-form booleans and their defaults; stored in users.preferences as JSON. */
export const PREFERENCE_DEFAULTS = {
  send_comment_on_design_notifications: true,
  send_follow_notifications: true,
  send_your_design_got_printed_notifications: true,
  send_your_design_got_added_to_collection_notifications: true,
  send_new_design_by_person_you_follow_notifications: true,
  send_collection_updated_follower_notifications: true,
  show_random: true,
  follow_conversations: true,
  wants_newsletter: false,
} as const;
export type Preferences = { -readonly [K in keyof typeof PREFERENCE_DEFAULTS]: boolean };

export function preferencesOf(user: UserRow): Preferences {
  return { ...PREFERENCE_DEFAULTS, ...(JSON.parse(user.preferences) as Partial<Preferences>) };
}

export function serializePublicUser(user: UserRow): PublicUser {
  return {
    id: user.id,
    created_at: formatTimestamp(user.created_at),
    screen_name: user.screen_name,
    real_name: user.real_name,
    avatar_file: avatarFileObject(user),
    url: user.url,
    location: user.location,
    skills: JSON.parse(user.skills) as unknown[],
  };
}

/** GET /v1/user/whoami. authentication_token is null: tokens are never echoed back (docs/service-choices.md). */
export function serializeOwnUser(user: UserRow): OwnUser {
  return {
    ...serializePublicUser(user),
    email: user.email,
    authentication_token: null,
    updated_at: formatTimestamp(user.updated_at),
    slug: user.slug,
    name: user.name,
    about: user.about,
    ...preferencesOf(user),
    last_used_device_id: null,
    group_id: null,
    banned: null,
    email_token: user.email_token,
    donate_url: user.donate_url,
    role: user.role,
  };
}
