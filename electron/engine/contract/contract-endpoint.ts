import type { ContractEvents, DroppedFileView, EventName, Outcome } from '../../../shared';

/** One event as it crosses to a window. */
export type EventMessage = { [K in EventName]: { type: 'event'; name: K; payload: ContractEvents[K] } }[EventName];

/** A file the host may send: a path on disk inside the profile's file cache, with its type and size. */
export interface ServedFile {
  path: string;
  contentType: string;
  size: number;
  /** Sent as an attachment under this name (a download of a model file kept offline), not shown in the window. */
  downloadName?: string;
}

/**
 * What a host (the Electron main process, the local window host) drives: the contract's requests answered by the
 * engine, its events, and the files behind the contract's file addresses. Hosts never reach into the engine past this.
 */
export interface ContractEndpoint {
  /**
   * Answers one request: the name and input are checked against the contract first (a 'validation' or
   * 'unknown-request' problem when they do not fit, and nothing changes). Never throws: every failure is a problem.
   * `signal`: the asking window went away; what the request still waits on (the service…) is stopped.
   */
  handle(name: unknown, input: unknown, signal?: AbortSignal): Promise<Outcome<unknown>>;
  /** Every event for windows, until the returned function is called. */
  subscribe(listener: (event: EventMessage) => void): () => void;
  /**
   * The file behind a contract file address (a path starting with `/files/`), from the file cache, fetched from the
   * service on demand when online. Null when the address names nothing the engine knows or it cannot be had now.
   */
  file(address: string, signal?: AbortSignal): Promise<ServedFile | null>;
  /**
   * Files dropped on a design: their bytes never cross the contract. The host streams a dropped file's body to a new
   * file directly in this folder (the profile's `incoming/`, made when missing), then hands it to adoptDroppedFile.
   */
  incomingDir(): Promise<string>;
  /**
   * Puts a staged file into the design's folder in the sync folder (a unique name, never overwriting), to be uploaded
   * by sync and the queue. Refused unless the design is the signed-in user's, a sync folder is chosen, the name is
   * allowed and `stagedPath` is in incomingDir(); the staged file is gone afterwards either way. Never throws.
   */
  adoptDroppedFile(drop: { designId: number; fileName: string; stagedPath: string }): Promise<Outcome<DroppedFileView>>;
  /**
   * A picture the window rendered from a design's first model (it has no image), staged by the host in incomingDir()
   * like a drop: kept with the design in the profile (never uploaded), its cards told. Refused unless the design is
   * in the cache without an image, `documentId` is its first model, and the bytes are a PNG within bounds; the staged
   * file is gone afterwards either way. Never throws.
   */
  adoptGeneratedThumbnail(staged: { designId: number; documentId: number; stagedPath: string }): Promise<Outcome<{ thumbnailUrl: string }>>;
}

/** Every file address of the contract starts with this. */
export const FILE_ADDRESS_PREFIX = '/files/';
