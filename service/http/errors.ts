import type { FieldErrors } from '../../shared';

/** An error the service answers with as it is: a status and a JSON body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

/** Spec §7: the only error body the spec shows. */
export const NOT_AUTHORIZED_MESSAGE = 'You are not authorized to access this page.';

export const forbidden = () => new HttpError(403, { error: NOT_AUTHORIZED_MESSAGE });

export const notFound = (what: string) => new HttpError(404, { error: `${what} not found` });

export const authenticationRequired = () =>
  new HttpError(401, { error: 'You need to sign in or authorize this application before continuing.' });

export const tokenRejected = () =>
  new HttpError(401, { error: 'Invalid or revoked authentication token. Authorize the application again.' });

export const unprocessable = (errors: FieldErrors) => new HttpError(422, { errors });

export const badRequest = (message: string) => new HttpError(400, { error: message });

export const payloadTooLarge = (limitBytes: number) =>
  new HttpError(413, { error: `Upload is larger than the limit of ${limitBytes} bytes` });
