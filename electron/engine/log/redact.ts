/** What replaces a secret in the log. */
export const REDACTED = '[redacted]';

/**
 * Query or form values that carry a credential: the token goes as `auth_token` (spec §5.6), the window host's address
 * carries its run's `secret`; the others for safety.
 */
const CREDENTIAL_PARAMETER = /\b((?:auth_token|access_token|refresh_token|token|password|secret)(?:=|%3D))[^&\s"'#<>]+/gi;
/** An Authorization header's credential. */
const AUTHORIZATION = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** A password in a URL's user:password@ (a proxy's address). */
const URL_PASSWORD = /(\/\/[^\s/:@]+:)[^\s/@]+@/g;
/** A credential as a JSON field: "token": "…". */
const JSON_FIELD = /("(?:auth_token|access_token|refresh_token|token|password)"\s*:\s*")[^"]*"/gi;

/** Secrets shorter than this are not searched for as text: they would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

/**
 * `text` with every credential taken out: any `auth_token=` (or token, password…) value, Authorization credentials,
 * token fields of JSON, and every occurrence of the given secrets themselves (the session's token, wherever it
 * appears: in a message, a URL, a stack).
 */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  return out
    .replace(CREDENTIAL_PARAMETER, `$1${REDACTED}`)
    .replace(AUTHORIZATION, `$1 ${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(JSON_FIELD, `$1${REDACTED}"`);
}
