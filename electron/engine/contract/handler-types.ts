import type { ParsedInput, RequestName, RequestResult } from '../../../shared';
import type { Engine } from '../runtime/engine';
import type { EngineServices } from './engine-services';

/**
 * Answers one request: parse (done at the boundary), call the engine or its services, make the view. Throws
 * ServiceError or EngineError for problems (turned into outcomes). `signal` ends when the asking window goes away.
 */
export type Handler<K extends RequestName> = (engine: Engine, input: ParsedInput<K>, signal: AbortSignal, services: EngineServices) => Promise<RequestResult<K>> | RequestResult<K>;

export type Handlers<K extends RequestName = RequestName> = { [N in K]: Handler<N> };
