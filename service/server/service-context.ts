import type { ServiceDatabase } from '../database/open-database';

export interface ServiceOptions {
  /** Where the database and uploaded files live; survives restarts. */
  dataDir: string;
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number;
  /** Whether the loopback-only fault-injection admin endpoint is mounted. */
  faultInjection: boolean;
  /** Log each request (with auth_token redacted). */
  logRequests: boolean;
}

export interface ServiceContext {
  db: ServiceDatabase;
  options: ServiceOptions;
  /** The service's own origin (its API's), e.g. http://127.0.0.1:4010; empty until it listens. */
  origin: string;
  /** Its web site's origin: `origin` itself unless the web part listens on a port of its own (start-service.ts webPort). */
  webOrigin: string;
  now: () => number;
}

export const DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 ** 3;
