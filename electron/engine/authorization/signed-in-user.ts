/** Who is signed in, as much as the engine keeps of it (never the token). */
export interface SignedInUser {
  id: number;
  screen_name: string;
  real_name?: string | null;
}

/** Reads the user the service sent (the `user` form field, or GET /v1/user/whoami): needs id and screen_name. */
export function readSignedInUser(value: unknown): SignedInUser | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { id, screen_name, real_name } = value as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return undefined;
  if (typeof screen_name !== 'string' || screen_name.length === 0) return undefined;
  return { id, screen_name, real_name: typeof real_name === 'string' ? real_name : null };
}
