import { sameService } from '../authorization/service-binding';
import { normalizeServiceUrl } from '../profile/profile';
import { derivedWebAddress, normalizeWebAddress, webAddressOf } from '../profile/web-address';
import type { SettingsStore } from '../settings/settings-store';
import { EngineError } from './engine-error';
import { checkServiceAddress } from './service-check';

/**
 * The service address a person asks for, checked in order: a web address at all; the same service as now (null: no
 * change); not another service while signed in to one (a token belongs to its service: nothing is sent to the new
 * address then); with `check`, a design-sharing service answers there (service-check.ts). Refusals are EngineErrors
 * in words; `fieldErrors.serviceUrl` says the same after the field's label.
 */
export async function serviceAddressToSave(raw: string, facts: {
  current: string | null;
  /** The service the session is signed in to (its token's), or null when signed out. */
  signedInTo: string | null;
  check: boolean;
  userAgent: string;
}): Promise<string | null> {
  let url: string;
  try {
    url = normalizeServiceUrl(raw);
  } catch (error) {
    throw new EngineError({ kind: 'validation', message: (error as Error).message, fieldErrors: { serviceUrl: [(error as Error).message] } });
  }
  if (facts.current !== null && sameService(facts.current, url)) return null;
  if (facts.signedInTo !== null && !sameService(facts.signedInTo, url)) {
    throw new EngineError({
      kind: 'conflict',
      message: `Signed in to ${facts.signedInTo}: sign out before choosing another service. A sign-in belongs to its service and is never sent to another (${url}).`,
    });
  }
  if (facts.check) {
    const refusal = await checkServiceAddress(url, { userAgent: facts.userAgent });
    if (refusal) throw new EngineError({ kind: 'validation', message: refusal.message, fieldErrors: { serviceUrl: [refusal.fieldError] } });
  }
  return url;
}

/**
 * Saves the web address a person gave (spec {auth_url}): '' goes back to the one derived from the service address,
 * and so does the derived address itself (so that it keeps following a changed service address). Only an explicit
 * web address is kept when the service address changes: a derived one is never stored.
 */
export function saveWebAddress(settings: SettingsStore, raw: string): void {
  // '' rather than removing the key: electron-store can only merge values, never take one away.
  if (raw.trim() === '') {
    settings.update({ webUrl: '' });
    return;
  }
  let url: string;
  try {
    url = normalizeWebAddress(raw);
  } catch (error) {
    throw new EngineError({ kind: 'validation', message: (error as Error).message, fieldErrors: { webUrl: [(error as Error).message] } });
  }
  const serviceUrl = settings.read().serviceUrl;
  settings.update({ webUrl: serviceUrl && derivedWebAddress(serviceUrl) === url ? '' : url });
}

/** The web address in force (the person's, else derived), and whether it is derived; null without a service. */
export function webAddressFacts(settings: SettingsStore): { webUrl: string | null; derived: boolean } {
  const current = settings.read();
  return { webUrl: webAddressOf(current), derived: !current.webUrl };
}
