import { Worker } from 'node:worker_threads';
import { engineLog } from '../log/engine-log';

/**
 * Downloads written and hashed (SHA-256, a file cache download's address) on a thread of their own, so that neither
 * takes the engine's main thread while the next chunks come, and a full buffer costs one wake-up of one thread. The
 * bytes are not copied to get there: the file cache hands each full buffer's memory to this thread (`postMessage`'s
 * transfer list), which writes it to the download's file, hashes it and hands the memory back to be filled again. (A
 * buffer over shared memory would need no moving, but filling one costs more: V8 copies into shared memory a byte at a
 * time where it copies other memory with memmove.)
 *
 * The thread is plain JavaScript given as its source (node:crypto only), started when a download first needs it and
 * ended once no download has used it for a while; it never keeps the process alive.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { writeSync } = require('node:fs');
const hashes = new Map();
parentPort.on('message', (message) => {
  try {
    if (message.kind === 'update') {
      const bytes = new Uint8Array(message.buffer, 0, message.length);
      if (message.fd !== undefined) {
        for (let at = 0; at < bytes.byteLength;) {
          const written = writeSync(message.fd, bytes, at, bytes.byteLength - at);
          if (written === 0) throw new Error('a write to the cache stored nothing');
          at += written;
        }
      }
      let hash = hashes.get(message.id);
      if (!hash) hashes.set(message.id, (hash = createHash('sha256')));
      hash.update(bytes);
      parentPort.postMessage({ seq: message.seq, buffer: message.buffer }, [message.buffer]);
    } else if (message.kind === 'digest') {
      const hash = hashes.get(message.id) ?? createHash('sha256');
      hashes.delete(message.id);
      parentPort.postMessage({ seq: message.seq, digest: hash.digest('hex') });
    } else if (message.kind === 'drop') {
      hashes.delete(message.id);
    }
  } catch (error) {
    parentPort.postMessage({ seq: message.seq, error: String(error && error.message || error) });
  }
});
`;

/** A thread with nothing to write or hash for this long is ended (the next download starts another). */
const IDLE_MS = 30_000;

interface Reply {
  seq: number;
  digest?: string;
  error?: string;
  /** An update's buffer, handed back. */
  buffer?: ArrayBuffer;
}

/** One download's running hash, kept by the hash thread. */
export interface StreamHash {
  /**
   * Hashes the first `length` bytes of a buffer made by `movableBuffer`, having written them at the position of the file
   * open as `fd` first when one is given. The buffer's memory goes to the thread meanwhile (the Buffer given is left
   * empty at once); resolves once done with a Buffer over that same memory, handed back.
   */
  update(buffer: Buffer, length: number, fd?: number): Promise<Buffer>;
  /** The hex digest of everything given, in order. */
  digest(): Promise<string>;
  /** Forgets it (a download that failed). */
  drop(): void;
}

/** A buffer whose memory can go to the hash thread and back without a copy: the whole of an ArrayBuffer of its own. */
export function movableBuffer(bytes: number): Buffer {
  return Buffer.allocUnsafeSlow(bytes);
}

class HashThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private nextSeq = 1;
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  /** Hashes opened and not yet digested or dropped: the thread is not ended while one is (it holds their state). */
  private opened = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  open(): StreamHash {
    const id = this.nextId++;
    // A hash lives in the thread it began in: one that stopped meanwhile has lost it.
    const worker = this.started();
    this.opened++;
    let ended = false;
    const end = () => {
      if (ended) return false;
      ended = true;
      this.opened--;
      if (this.opened === 0 && this.waiting.size === 0 && this.worker) this.endWhenIdle(this.worker);
      return true;
    };
    return {
      update: async (buffer, length, fd) => {
        const memory = buffer.buffer as ArrayBuffer;
        if (buffer.byteOffset !== 0 || buffer.byteLength !== memory.byteLength) throw new Error('Only a whole buffer of its own goes to the hash thread.');
        const reply = await this.ask(worker, { kind: 'update', id, buffer: memory, length, ...(fd === undefined ? {} : { fd }) }, [memory]);
        return Buffer.from(reply.buffer!);
      },
      digest: async () => {
        try {
          return (await this.ask(worker, { kind: 'digest', id })).digest!;
        } finally {
          end();
        }
      },
      drop: () => {
        if (end() && this.worker === worker) worker.postMessage({ kind: 'drop', id });
      },
    };
  }

  private ask(worker: Worker, message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Reply> {
    if (this.worker !== worker) return Promise.reject(new Error('The thread that hashes downloads stopped.'));
    const seq = this.nextSeq++;
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      try {
        worker.postMessage({ ...message, seq }, transfer);
      } catch (error) {
        this.waiting.delete(seq);
        throw error;
      }
    }).then((reply) => {
      if (reply.error !== undefined) throw new Error(`a download could not be hashed: ${reply.error}`);
      return reply;
    });
  }

  private started(): Worker {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (this.worker) return this.worker;
    const worker = new Worker(SOURCE, { eval: true, name: 'design-sync download hashes' });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.seq);
      this.waiting.delete(reply.seq);
      waiter?.resolve(reply);
      if (this.waiting.size === 0 && this.opened === 0) this.endWhenIdle(worker);
    });
    const failed = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const waiters = [...this.waiting.values()];
      this.waiting.clear();
      for (const waiter of waiters) waiter.reject(error);
    };
    worker.on('error', (error) => {
      engineLog.warn('cache', 'the thread that writes and hashes downloads stopped', error);
      failed(error);
    });
    worker.on('exit', () => failed(new Error('The thread that hashes downloads stopped.')));
    this.worker = worker;
    return worker;
  }

  private endWhenIdle(worker: Worker): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker !== worker || this.waiting.size > 0 || this.opened > 0) return;
      this.worker = null;
      void worker.terminate();
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

/** The process's one hash thread (every file cache's downloads share it). */
export const downloadHashes = new HashThread();
