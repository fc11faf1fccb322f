import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../server/service-context';

/** Documents of a design (spec §4.3). Placeholder: mounts nothing yet. */
export function registerDocumentRoutes(_app: FastifyInstance, _ctx: ServiceContext): void {}
