import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseRequest, type Outcome, type ServerMessage } from '../../shared';
import { SLICER_FILE_TYPES, SYSTEM_DEFAULT_SLICER } from '../../shared/files/model-files';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';
import { parseFrame } from './contract-frames';

/** A frame larger than this closes the socket (1009): no request of the contract comes near it. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** A window that does not read its messages (a frozen tab) is disconnected rather than buffered for without end. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Requests of one socket answered at once; past it the socket is no longer read until one is answered. */
export const MAX_IN_FLIGHT = 32;

export interface ContractSocket {
  /** Takes over an upgrade request that already passed the host's checks. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

/**
 * A browser page opens no app on this computer, nor learns where a file is: "Open in your slicer" is answered here,
 * before the engine sees it (it would start a slicer, or answer a path), as nothing opened. The page downloads the
 * file from the host instead ("Download … for your slicer", fetched into the file cache when it is not kept).
 */
function openInBrowser(input: unknown): Outcome<unknown> {
  const parsed = parseRequest('design.openModelFile', input);
  if (!parsed.ok) return parsed;
  return { ok: true, value: { opened: false, path: null, slicer: { id: SYSTEM_DEFAULT_SLICER, name: 'System default app', types: [...SLICER_FILE_TYPES] } } };
}

/**
 * The contract over WebSocket: each text frame a request (checked against the contract's envelope, then its input
 * by the endpoint), answered with its outcome; the endpoint's events sent to every open socket.
 */
export function contractSocket(endpoint: ContractEndpoint, log: (line: string) => void): ContractSocket {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  const send = (socket: WebSocket, message: ServerMessage) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      log('window host: a window stopped reading its messages; it was disconnected');
      socket.terminate();
      return;
    }
    socket.send(JSON.stringify(message));
  };
  const unsubscribe = endpoint.subscribe((event) => {
    for (const socket of server.clients) send(socket, event);
  });

  const answer = (name: string, input: unknown, signal: AbortSignal): Promise<Outcome<unknown>> =>
    // The endpoint promises never to throw; should it, the window still gets an answer and the host stays up.
    (name === 'design.openModelFile' ? Promise.resolve(openInBrowser(input)) : endpoint.handle(name, input, signal)).catch((error: unknown) => {
      log(`window host: the ${name} request failed (${error instanceof Error ? error.message : String(error)})`);
      return { ok: false, problem: { kind: 'internal', message: `The ${name} request failed in the engine.` } };
    });

  server.on('connection', (socket) => {
    let inFlight = 0;
    // The window went away: what its requests still wait on (the service…) is stopped.
    const gone = new AbortController();
    // Frames ws had already read when the socket was paused: at most one read's worth, never more.
    const waiting: { id: number; name: string; input: unknown }[] = [];
    const run = (request: { id: number; name: string; input: unknown }) => {
      inFlight++;
      if (inFlight >= MAX_IN_FLIGHT) socket.pause();
      void answer(request.name, request.input, gone.signal).then((outcome) => {
        inFlight--;
        send(socket, { type: 'response', id: request.id, outcome });
        const next = waiting.shift();
        if (next) run(next);
        else if (socket.isPaused) socket.resume();
      });
    };

    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        socket.close(1003, 'text frames only');
        return;
      }
      const frame = parseFrame(String(data));
      if (frame.kind === 'dropped') log(`window host: ${frame.reason} was dropped`);
      else if (frame.kind === 'refused') send(socket, { type: 'response', id: frame.id, outcome: { ok: false, problem: frame.problem } });
      else if (inFlight >= MAX_IN_FLIGHT) waiting.push(frame.message);
      else run(frame.message);
    });
    socket.on('close', () => {
      waiting.length = 0;
      gone.abort();
    });
    socket.on('error', (error) => log(`window host: a window's connection failed (${error.message})`));
  });

  return {
    accept(request, socket, head) {
      server.handleUpgrade(request, socket, head, (ws) => server.emit('connection', ws, request));
    },
    async close() {
      unsubscribe();
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
