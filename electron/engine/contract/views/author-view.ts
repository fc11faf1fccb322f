import type { AuthorView } from '../../../../shared';
import { avatarAddress } from '../file-addresses';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

/** An author from the users endpoint's public form (spec §2.4), as the cache keeps it. */
export function authorView(id: number, screenName: string, raw: Record<string, unknown> | null): AuthorView {
  const avatar = raw?.avatar_file as { url?: unknown } | undefined;
  const skills = Array.isArray(raw?.skills) ? raw.skills : [];
  return {
    id,
    screenName,
    realName: text(raw?.real_name),
    location: text(raw?.location),
    skills: skills.map((skill) => (typeof skill === 'string' ? skill : text((skill as { name?: unknown } | null)?.name))).filter((skill): skill is string => !!skill),
    avatarUrl: typeof avatar?.url === 'string' ? avatarAddress(id) : null,
    pageUrl: text(raw?.url),
  };
}
