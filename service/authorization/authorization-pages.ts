import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../server/service-context';

/** Browser authorization (spec §5): sign-in, allow/deny, redirect POST, profile page with revoke. Placeholder: mounts nothing yet. */
export function registerAuthorizationPages(_app: FastifyInstance, _ctx: ServiceContext): void {}
