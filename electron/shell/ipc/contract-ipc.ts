import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { CONTRACT_EVENT_CHANNEL, CONTRACT_REQUEST_CHANNEL, isRequestName, type Outcome, type RequestResult } from '../../../shared';
import type { EventMessage } from '../../engine/contract/contract-endpoint';

export interface ContractIpcOptions {
  /** Whether the message comes from our own window's main frame, on our own origin. */
  isTrusted(event: IpcMainInvokeEvent): boolean;
  /** Forwards a request to the engine (which checks its input against the contract). */
  request(name: string, input: unknown): Promise<Outcome<unknown>>;
  /**
   * Opens a file with the system's app for its type (Electron's shell.openPath: '' when opened, else why not). Given,
   * "Open in your slicer" opens the model file the engine names; the window never sees, nor chooses, a path.
   */
  openPath?(path: string): Promise<string>;
  log(line: string): void;
}

/**
 * The contract's one IPC handler in the main process: the sender checked first (our window, its main frame, our
 * origin), the request's name checked against the contract, then the engine answers (and checks the input). Refusals
 * are outcomes, never exceptions (an exception would reach the window with its message only). Returns the function
 * that removes the handler.
 */
export function registerContractIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, options: ContractIpcOptions): () => void {
  ipcMain.handle(CONTRACT_REQUEST_CHANNEL, async (event, name: unknown, input: unknown): Promise<Outcome<unknown>> => {
    if (!options.isTrusted(event)) {
      options.log(`ipc: a contract request from an untrusted sender was refused (${event.senderFrame?.url ?? 'a frame that is gone'})`);
      return { ok: false, problem: { kind: 'forbidden', message: 'This request did not come from the design-sync window.' } };
    }
    if (!isRequestName(name)) return { ok: false, problem: { kind: 'unknown-request', message: `There is no request ${JSON.stringify(String(name)).slice(0, 120)}.` } };
    const outcome = await options.request(name, input);
    return name === 'design.openModelFile' ? openModelFile(outcome as Outcome<RequestResult<'design.openModelFile'>>, options) : outcome;
  });
  return () => ipcMain.removeHandler(CONTRACT_REQUEST_CHANNEL);
}

/**
 * "Open in your slicer": the engine started the chosen slicer itself, or answered the path of the copy (under its own
 * name) for the system's default app; the shell opens that with shell.openPath, and the window learns only whether it
 * opened, or why not in words, never the path.
 */
async function openModelFile(outcome: Outcome<RequestResult<'design.openModelFile'>>, options: ContractIpcOptions): Promise<Outcome<RequestResult<'design.openModelFile'>>> {
  if (!outcome.ok || outcome.value.path === null) return outcome.ok ? { ok: true, value: { ...outcome.value, path: null } } : outcome;
  const { slicer } = outcome.value;
  if (!options.openPath) return { ok: true, value: { opened: false, path: null, slicer } };
  let failure: string;
  try {
    failure = await options.openPath(outcome.value.path);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  if (failure === '') return { ok: true, value: { opened: true, path: null, slicer } };
  options.log(`ipc: a model file could not be opened (${failure})`);
  return { ok: false, problem: { kind: 'internal', message: 'Your system could not open this file: it may have no app for its type. Install a slicer (Cura, PrusaSlicer, OrcaSlicer…) and try again.' } };
}

/** Something that can receive the contract's events: a window's webContents. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, message: EventMessage): void;
}

/** Sends one contract event to every live window, on the one event channel. */
export function sendContractEvent(targets: Iterable<EventTarget>, event: EventMessage): void {
  for (const target of targets) {
    if (!target.isDestroyed()) target.send(CONTRACT_EVENT_CHANNEL, event);
  }
}
