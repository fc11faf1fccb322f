import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../server/service-context';

/** Serves stored files under /uploads. Placeholder: mounts nothing yet. */
export function registerUploadServing(_app: FastifyInstance, _ctx: ServiceContext): void {}
