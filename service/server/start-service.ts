import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type ServiceDatabase } from '../database/open-database';
import { buildApp } from './build-app';
import { DEFAULT_MAX_UPLOAD_BYTES, type ServiceContext, type ServiceOptions } from './service-context';

export interface StartServiceOptions extends Partial<ServiceOptions> {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * Serve the web site (sign-in and authorization pages, /profile, design pages) on this second port (0 picks a free
   * one), and only the API on `port`: the two addresses of the real service (api. and www.), so that a client that
   * mixes them up fails. Without it, one port serves both.
   */
  webPort?: number;
}

export interface RunningService {
  /** http://127.0.0.1:<port>: base_url (and auth_url too, unless the web site has a port of its own). */
  url: string;
  port: number;
  /** The web site's address (auth_url, design pages): `url` itself unless started with webPort. */
  webUrl: string;
  db: ServiceDatabase;
  ctx: ServiceContext;
  app: FastifyInstance;
  /** The web site's app when it has a port of its own, else null. */
  webApp: FastifyInstance | null;
  close(): Promise<void>;
}

export function openServiceContext(options: StartServiceOptions): ServiceContext {
  const dataDir = resolve(options.dataDir);
  mkdirSync(join(dataDir, 'files'), { recursive: true });
  mkdirSync(join(dataDir, 'tmp'), { recursive: true });
  const ctx: ServiceContext = {
    db: openDatabase(join(dataDir, 'service.sqlite')),
    options: {
      dataDir,
      maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
      faultInjection: options.faultInjection ?? false,
      logRequests: options.logRequests ?? false,
    },
    origin: '',
    webOrigin: '',
    now: () => Date.now(),
  };
  return ctx;
}

async function listen(app: FastifyInstance, port: number): Promise<number> {
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the service did not get a TCP address');
  return address.port;
}

/** Starts the local service on 127.0.0.1 only: on one port, or the API and the web site on two (webPort). */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const ctx = openServiceContext(options);
  const split = options.webPort !== undefined;
  const app = await buildApp(ctx, split ? 'api' : 'both');
  const webApp = split ? await buildApp(ctx, 'web') : null;
  const port = await listen(app, options.port ?? 0);
  const url = `http://127.0.0.1:${port}`;
  let webUrl = url;
  if (webApp) {
    try {
      webUrl = `http://127.0.0.1:${await listen(webApp, options.webPort ?? 0)}`;
    } catch (error) {
      await app.close();
      ctx.db.close();
      throw error;
    }
  }
  ctx.origin = url;
  ctx.webOrigin = webUrl;
  return {
    url, port, webUrl, db: ctx.db, ctx, app, webApp,
    async close() {
      await Promise.all([app.close(), webApp?.close()]);
      ctx.db.close();
    },
  };
}
