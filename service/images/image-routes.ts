import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../server/service-context';

/** Images of a design (spec §4.2). Placeholder: mounts nothing yet. */
export function registerImageRoutes(_app: FastifyInstance, _ctx: ServiceContext): void {}
