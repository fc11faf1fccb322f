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
}

export interface RunningService {
  /** http://127.0.0.1:<port>: both base_url and auth_url. */
  url: string;
  port: number;
  db: ServiceDatabase;
  ctx: ServiceContext;
  app: FastifyInstance;
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
    now: () => Date.now(),
  };
  return ctx;
}

/** Starts the local service on 127.0.0.1 only. */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const ctx = openServiceContext(options);
  const app = await buildApp(ctx);
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the service did not get a TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  ctx.origin = url;
  return {
    url, port: address.port, db: ctx.db, ctx, app,
    async close() {
      await app.close();
      ctx.db.close();
    },
  };
}
