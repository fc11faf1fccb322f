import { fieldErrorsOf, requestMessage, validationProblem, type ContractProblem, type RequestMessage } from '../../shared';

/** What one incoming text frame is: a request, a refusal to answer (it has an id), or nothing to answer (it has none). */
export type ParsedFrame =
  | { kind: 'request'; message: RequestMessage }
  | { kind: 'refused'; id: number; problem: ContractProblem }
  | { kind: 'dropped'; reason: string };

/** Checks a frame against the contract's envelope; the request's input is checked later, by the endpoint. */
export function parseFrame(text: string): ParsedFrame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'dropped', reason: 'a frame that is not JSON' };
  }
  const message = requestMessage.safeParse(parsed);
  if (message.success) return { kind: 'request', message: message.data };
  const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return { kind: 'dropped', reason: 'a message without a request id' };
  const fieldErrors = fieldErrorsOf(message.error);
  const detail = Object.entries(fieldErrors).map(([field, messages]) => `${field} ${messages.join(', ')}`).join('; ');
  return { kind: 'refused', id, problem: validationProblem(fieldErrors, `The message was refused: ${detail}.`) };
}
