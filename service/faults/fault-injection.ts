import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../server/service-context';

/** Fault injection for reliability tests; off unless ctx.options.faultInjection. Placeholder: mounts nothing yet. */
export function registerFaultInjection(_app: FastifyInstance, _ctx: ServiceContext): void {}
