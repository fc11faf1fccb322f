import type { ContractEvents, EventName, Outcome } from '../../../shared';

/** One event as it crosses to a window. */
export type EventMessage = { [K in EventName]: { type: 'event'; name: K; payload: ContractEvents[K] } }[EventName];

/** A file the host may send: a path on disk inside the profile's file cache, with its type and size. */
export interface ServedFile {
  path: string;
  contentType: string;
  size: number;
}

/**
 * What a host (the Electron main process, the local window host) drives: the contract's requests answered by the
 * engine, its events, and the files behind the contract's file addresses. Hosts never reach into the engine past this.
 */
export interface ContractEndpoint {
  /**
   * Answers one request: the name and input are checked against the contract first (a 'validation' or
   * 'unknown-request' problem when they do not fit, and nothing changes). Never throws: every failure is a problem.
   */
  handle(name: unknown, input: unknown): Promise<Outcome<unknown>>;
  /** Every event for windows, until the returned function is called. */
  subscribe(listener: (event: EventMessage) => void): () => void;
  /**
   * The file behind a contract file address (a path starting with `/files/`), from the file cache, fetched from the
   * service on demand when online. Null when the address names nothing the engine knows or it cannot be had now.
   */
  file(address: string, signal?: AbortSignal): Promise<ServedFile | null>;
}

/** Every file address of the contract starts with this. */
export const FILE_ADDRESS_PREFIX = '/files/';
