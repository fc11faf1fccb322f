import { z } from 'zod';
import type { ContractEvents, EventName } from './events';
import { validationProblem, type ContractProblem } from './problems';
import { isRequestName, REQUEST_INPUTS, type ParsedInput, type RequestName, type RequestResult } from './requests';
import type { FieldErrors } from '../validation/field-errors';

/** How a request ends: its result, or a typed problem (never an exception that loses its detail crossing a process). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: ContractProblem };

/** A window's message on a wire (the window host's WebSocket): JSON. */
export const requestMessage = z.object({
  type: z.literal('request'),
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  name: z.string().max(100),
  input: z.unknown(),
}).strict();
export type RequestMessage = z.infer<typeof requestMessage>;

export type ServerMessage =
  | { type: 'response'; id: number; outcome: Outcome<unknown> }
  | { [K in EventName]: { type: 'event'; name: K; payload: ContractEvents[K] } }[EventName];

/** Zod's issues as the service words field errors: the field's path → messages. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [issue.path.join('.') || 'input'];
    const message = issue.code === 'unrecognized_keys' ? 'is not a known field' : issue.message;
    for (const key of keys) (errors[key] ??= []).push(message);
  }
  return errors;
}

/** Checks a request's name and input against the contract: the parsed input, or the problem to answer. */
export function parseRequest(name: unknown, input: unknown): { ok: true; name: RequestName; input: ParsedInput<RequestName> } | { ok: false; problem: ContractProblem } {
  if (!isRequestName(name)) return { ok: false, problem: { kind: 'unknown-request', message: `There is no request ${JSON.stringify(String(name)).slice(0, 120)}.` } };
  const result = REQUEST_INPUTS[name].safeParse(input ?? {});
  if (!result.success) {
    const fieldErrors = fieldErrorsOf(result.error);
    return { ok: false, problem: validationProblem(fieldErrors, `The ${name} request was refused: ${Object.entries(fieldErrors).map(([field, messages]) => `${field} ${messages.join(', ')}`).join('; ')}.`) };
  }
  return { ok: true, name, input: result.data as ParsedInput<RequestName> };
}

/** What a window calls, whatever carries the request (the preload in Electron, a WebSocket in a browser). */
export interface ContractClient {
  request<K extends RequestName>(name: K, input: z.input<(typeof REQUEST_INPUTS)[K]>): Promise<Outcome<RequestResult<K>>>;
  on<E extends EventName>(name: E, listener: (payload: ContractEvents[E]) => void): () => void;
}
