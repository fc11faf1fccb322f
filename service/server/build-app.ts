import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import qs from 'qs';
import { registerAuthentication } from '../authentication/current-user';
import { registerDesignRoutes } from '../designs/design-routes';
import { registerFaultInjection } from '../faults/fault-injection';
import { registerHttpErrors } from '../http/error-handler';
import { registerWeakEtags } from '../http/weak-etag';
import { registerUserRoutes } from '../users/user-routes';
import type { ServiceContext } from './service-context';
import { API_MODULES, SERVICE_MODULES, WEB_MODULES } from './service-modules';

const REDACTED_QUERY = /([?&]auth_token=)[^&]*/g;

/** Never let a token reach a log line. */
export function redactUrl(url: string): string {
  return url.replace(REDACTED_QUERY, '$1[redacted]');
}

function loggerOptions(ctx: ServiceContext): FastifyServerOptions['logger'] {
  if (!ctx.options.logRequests) return false;
  return {
    level: 'info',
    serializers: {
      req: (request: { method: string; url: string }) => ({ method: request.method, url: redactUrl(request.url) }),
    },
  };
}

/**
 * Which part of the service an app serves: both on one port (the default), or the API and the web site on two ports,
 * as the real service has them on two hosts (api. and www.): then each answers only its own addresses.
 */
export type ServicePart = 'both' | 'api' | 'web';

export async function buildApp(ctx: ServiceContext, part: ServicePart = 'both'): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(ctx),
    bodyLimit: 1024 * 1024,
    // Form bodies arrive as design[name]=…; Rails-style nesting is parsed by qs.
    routerOptions: { ignoreTrailingSlash: true },
  });
  // Error handling first: Fastify binds a route to the error handler in force when the route is added.
  registerHttpErrors(app);
  // Then fault injection, so that its hooks see every request before anything else does.
  if (part !== 'web') registerFaultInjection(app, ctx);
  await app.register(formbody, { parser: (body) => qs.parse(body, { depth: 2, parameterLimit: 100 }) });
  await app.register(multipart, { limits: { fileSize: ctx.options.maxUploadBytes, files: 1, fields: 20, fieldSize: 1024 * 1024 } });
  registerWeakEtags(app);
  await app.register(cookie);
  if (part !== 'web') {
    registerAuthentication(app, ctx);
    registerDesignRoutes(app, ctx);
    registerUserRoutes(app, ctx);
  }
  for (const register of part === 'api' ? API_MODULES : part === 'web' ? WEB_MODULES : SERVICE_MODULES) await register(app, ctx);
  return app;
}
