import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './service-context';

/**
 * Capabilities that mount their own routes and hooks: images, documents, file serving,
 * the browser authorization pages, fault injection. Each is one entry.
 */
export type ServiceModule = (app: FastifyInstance, ctx: ServiceContext) => void | Promise<void>;

export const SERVICE_MODULES: ServiceModule[] = [];
