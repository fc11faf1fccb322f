import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { requestMessage, validationProblem, fieldErrorsOf, type ServerMessage } from '../../shared';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';

/** A frame larger than this closes the socket: no request of the contract comes near it. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** A window that does not read its events (a frozen tab) is disconnected rather than buffered for without end. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export interface ContractSocket {
  /** Takes over an upgrade request that already passed the host's checks. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
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

  server.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        socket.close(1003, 'text frames only');
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(data));
      } catch {
        log('window host: a frame that is not JSON was dropped');
        return;
      }
      const message = requestMessage.safeParse(parsed);
      if (!message.success) {
        const id = (parsed as { id?: unknown } | null)?.id;
        if (typeof id === 'number' && Number.isSafeInteger(id)) {
          const fieldErrors = fieldErrorsOf(message.error);
          send(socket, { type: 'response', id, outcome: { ok: false, problem: validationProblem(fieldErrors, `The message was refused: ${Object.keys(fieldErrors).join(', ')}.`) } });
        } else {
          log('window host: a message without a request id was dropped');
        }
        return;
      }
      const { id, name, input } = message.data;
      void endpoint.handle(name, input).then((outcome) => send(socket, { type: 'response', id, outcome }));
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
