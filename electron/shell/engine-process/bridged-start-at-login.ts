import type { StartAtLoginHost } from '../../engine/settings/start-at-login';
import type { BridgePort, EngineToHost, HostToEngine } from '../engine-bridge/messages';

/** How long the host may take to register or remove the login item. */
const ANSWER_MS = 30_000;

/**
 * The app's login item as the engine's utility process sees it: the state the host read when it opened the engine,
 * and every change asked of the host (only the main process can use Electron's login items), kept as it answers.
 */
export function bridgedStartAtLogin(port: BridgePort<HostToEngine, EngineToHost>, initial: boolean): StartAtLoginHost {
  let on = initial;
  let nextId = 1;
  const pending = new Map<number, { resolve: (on: boolean) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  port.onMessage((message) => {
    if (message.type !== 'start-at-login-answer') return;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.ok) waiting.resolve(message.on);
    else waiting.reject(new Error(message.message));
  });
  return {
    isOn: () => on,
    set: (wanted) => new Promise<boolean>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('The app did not answer about starting at login in time: try again.'));
      }, ANSWER_MS);
      pending.set(id, {
        resolve: (answer) => {
          on = answer;
          resolve(answer);
        },
        reject,
        timer,
      });
      port.post({ type: 'start-at-login', id, on: wanted });
    }),
  };
}
