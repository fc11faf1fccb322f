import type { FastifyInstance } from 'fastify';
import { registerAuthorizationPages } from '../authorization/authorization-pages';
import { registerDesignPage } from '../designs/design-page';
import { registerDocumentRoutes } from '../documents/document-routes';
import { registerImageRoutes } from '../images/image-routes';
import { registerUploadServing } from '../media/upload-serving';
import type { ServiceContext } from './service-context';

/** A capability that mounts its own routes and hooks. */
export type ServiceModule = (app: FastifyInstance, ctx: ServiceContext) => void | Promise<void>;

export const SERVICE_MODULES: ServiceModule[] = [
  registerImageRoutes,
  registerDocumentRoutes,
  registerUploadServing,
  registerAuthorizationPages,
  registerDesignPage,
];
