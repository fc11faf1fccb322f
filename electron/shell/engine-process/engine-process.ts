/**
 * The entry of the engine's utility process (Electron's utilityProcess.fork): the whole engine runs here, away from
 * the main process, so that SQLite's synchronous work, a pull or a folder scan never freezes the window.
 * It imports nothing of Electron: the parent port is a property of `process` in a utility process.
 */
import type { BridgePort, EngineToHost, HostToEngine } from '../engine-bridge/messages';
import { serveEngine } from './serve-engine';

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  off(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!parentPort) {
  process.stderr.write('engine-process: this file is started by the design-sync app (an Electron utility process), not by hand.\n');
  process.exit(2);
}

const port: BridgePort<HostToEngine, EngineToHost> = {
  post: (message) => parentPort.postMessage(message),
  onMessage(listener) {
    const onMessage = (event: { data: unknown }) => listener(event.data as HostToEngine);
    parentPort.on('message', onMessage);
    return () => parentPort.off('message', onMessage);
  },
};

await serveEngine(port);
process.exit(0);
