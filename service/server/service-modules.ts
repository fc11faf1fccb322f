import type { FastifyInstance } from 'fastify';
import { registerAuthorizationPages } from '../authorization/authorization-pages';
import { registerDesignPage } from '../designs/design-page';
import { registerDocumentRoutes } from '../documents/document-routes';
import { registerImageRoutes } from '../images/image-routes';
import { registerUploadServing } from '../media/upload-serving';
import type { ServiceContext } from './service-context';

/** A capability that mounts its own routes and hooks. */
export type ServiceModule = (app: FastifyInstance, ctx: ServiceContext) => void | Promise<void>;

/** The API ({base_url}): JSON under /v1 (and /api), and the files it points to. */
export const API_MODULES: ServiceModule[] = [
  registerImageRoutes,
  registerDocumentRoutes,
  registerUploadServing,
];

/** The web site ({auth_url}): pages for people — the authorization pages of spec §5, /profile, a design's page. */
export const WEB_MODULES: ServiceModule[] = [
  registerAuthorizationPages,
  registerDesignPage,
];

export const SERVICE_MODULES: ServiceModule[] = [...API_MODULES, ...WEB_MODULES];
