import type { ParsedInput, RequestName, RequestResult } from '../../../shared';
import type { Engine } from '../runtime/engine';

/** Answers one request with the engine; throws ServiceError or EngineError for problems (turned into outcomes). */
export type Handler<K extends RequestName> = (engine: Engine, input: ParsedInput<K>, signal: AbortSignal) => Promise<RequestResult<K>> | RequestResult<K>;

export type Handlers<K extends RequestName = RequestName> = { [N in K]: Handler<N> };
