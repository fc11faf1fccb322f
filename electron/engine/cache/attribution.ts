import type { License } from '../../../shared';

/**
 * Spec §1 rule 2: attribution when the license requires it, never a wrong one. Built only from what the
 * cache holds about this design (its name, its author's screen name, its license); null when the
 * license needs none, or when the author is unknown (better no line than a wrong one).
 */
export function attributionLine(name: string, author: string, license: License | null): string | null {
  if (!license?.attributionRequired || !author) return null;
  return `“${name}” by ${author}, licensed ${license.title}`;
}

/** What a front end shows for rule 2: the line, or that it cannot be given now (never nothing when it is required). */
export interface Attribution {
  required: boolean;
  text: string | null;
  /** Required, but the author is not known: show "attribution unavailable", not the design as if none were needed. */
  unavailable: boolean;
}

export const ATTRIBUTION_UNAVAILABLE = 'Attribution unavailable: this license requires crediting the author, who is not known yet.';

export function attributionOf(name: string, author: string | null | undefined, license: License | null): Attribution {
  const required = license?.attributionRequired === true;
  const text = attributionLine(name, author ?? '', license);
  return { required, text, unavailable: required && text === null };
}

/**
 * Spec §1 rule 1: link to the design, never to its 3D files. The spec shows no web address for a design's
 * page; this is the service's web address (profile/web-address.ts: www. when the API is api.) with /designs/<slug or id>.
 */
export function designPageUrl(webUrl: string, design: { id: number; slug: string | null }): string {
  return `${webUrl.replace(/\/+$/, '')}/designs/${encodeURIComponent(design.slug ?? String(design.id))}`;
}

/**
 * The service's own `attribution` field (free text: the source an adapted design credits, e.g. a Thingiverse
 * thing's address), as plain text for "Based on …": markup dropped, whitespace folded; null when empty or absent.
 */
export function basedOnText(design: unknown): string | null {
  const value = typeof design === 'object' && design !== null ? (design as { attribution?: unknown }).attribution : undefined;
  if (typeof value !== 'string') return null;
  const text = value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}
