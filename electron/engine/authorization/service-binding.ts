/**
 * A token belongs to the service that issued it, and is never sent to another: a profile signed in to one service is
 * bound to it until it signs out. This file says when two addresses are the same service, and holds what remembers
 * which service the stored token was issued for.
 */

/**
 * The one spelling of a service address: scheme, host (lower case, default port dropped) and path without a trailing
 * slash. Null when it is not an http(s) address.
 */
export function serviceKey(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Whether two addresses name the same service (`http://A:80/` and `http://a` do). */
export function sameService(a: string, b: string): boolean {
  const first = serviceKey(a);
  return first !== null && first === serviceKey(b);
}

/**
 * Where the service the stored token was issued for is remembered (beside the token: the profile's settings). Written
 * before the token at a sign-in and cleared after it at a sign-out, so that a token is never without its service.
 */
export interface TokenServiceRecord {
  /** The service the stored token belongs to; null when not known. */
  read(): string | null;
  write(serviceUrl: string | null): void;
}

/** A record in memory only (tests, a throwaway session): the service of the token signed in with in this process. */
export function memoryTokenServiceRecord(initial: string | null = null): TokenServiceRecord {
  let current = initial;
  return {
    read: () => current,
    write: (serviceUrl) => void (current = serviceUrl),
  };
}

/**
 * Another service was asked for on a profile signed in to one: refused before anything is sent, since the token
 * belongs to `signedInTo`. The front end says what to do (sign out first, or another profile).
 */
export class ServiceBindingError extends Error {
  constructor(readonly signedInTo: string, readonly requested: string) {
    super(`This profile is signed in to ${signedInTo}; ${requested} is another service, and a sign-in is never sent to another service: sign out first to use it.`);
    this.name = 'ServiceBindingError';
  }
}
