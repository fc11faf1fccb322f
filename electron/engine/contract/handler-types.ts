import type { ParsedInput, RequestName, RequestResult } from '../../../shared';
import type { EngineServices } from '../composition/engine-services';

/**
 * Answers one request: parse (done at the boundary), call the services, make the view. Throws ServiceError or
 * EngineError for problems (turned into outcomes). `signal` ends when the asking window goes away. A handler gets the
 * engine's services (composition/engine-services.ts), never the engine or a database.
 */
export type Handler<K extends RequestName> = (services: EngineServices, input: ParsedInput<K>, signal: AbortSignal) => Promise<RequestResult<K>> | RequestResult<K>;

export type Handlers<K extends RequestName = RequestName> = { [N in K]: Handler<N> };
