import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import type { Session } from '../authorization/session';
import { engineLog } from '../log/engine-log';
import type { FolderSide, RemoteProblem } from './folder-side-state';
import { scanLocal } from './local-scan';
import { remoteStep, type RemoteScope } from './remote-step';
import type { RemoteWatch } from './remote-watch';
import type { SyncContext } from './sync-context';
import type { OwnDesigns, PassOptions, PassResult } from './sync-options';
import { said } from '../queue/said';

export interface SyncPassOptions {
  ctx: SyncContext;
  side: FolderSide;
  client: ServiceClient;
  ownDesigns: OwnDesigns;
  /** While it needs a new sign-in, the service is not read (the folder still is). */
  session: Session | null;
  watch: RemoteWatch;
  /** The engine's abort signal of now (a new one after each stop). */
  signal(): AbortSignal;
  /** The signed-in user, as the service's side of a pass learnt it. */
  setUserId(id: number | null): void;
}

/**
 * One pass: the sync folder checked (a stop lifted when it is back as it was), the service's side (remote-step.ts)
 * unless the pass is local only or the sign-in is missing, then the folder's changes into the queue (local-scan.ts).
 * Runs only inside the scheduler's chain: passes never overlap.
 */
export class SyncPass {
  constructor(private readonly options: SyncPassOptions) {}

  async run(options: PassOptions, changes?: RemoteScope & { kind: 'changes' }): Promise<PassResult> {
    const { ctx, side } = this.options;
    const result: PassResult = { createdFolders: [], remote: null, scan: null, stopped: null, remoteSkipped: null };
    // Stopped by this engine, or by the queue runner (it found the folder gone while sending).
    const status = ctx.queue.status();
    const wasStopped = side.stoppedReason ?? (status.state === 'stopped' ? status.reason : null);
    side.stoppedReason = null;
    const check = ctx.root.verify();
    if (!check.ok) {
      side.stoppedReason = wasStopped;
      ctx.stop(check);
      result.stopped = check.reason;
      return result;
    }
    // The hold a stop put on the queue ends: the folder is there as it was.
    if (status.state === 'stopped') ctx.queue.setRunState('idle', null);
    side.setPhase('scanning');
    let remoteProblem: RemoteProblem | null = null;
    if (!options.localOnly) {
      const session = this.options.session;
      if (session && !session.canWrite()) {
        result.remoteSkipped = session.state.status === 'needs-sign-in' ? said('activity.sync.remoteSkipped', { problem: 'signIn' }) : said('activity.sync.notSignedIn');
        remoteProblem = 'sign-in';
      } else {
        try {
          const scope: RemoteScope = changes ?? (options.designIds ? { kind: 'designs', designIds: options.designIds } : { kind: 'full' });
          const deps = { client: this.options.client, ownDesigns: this.options.ownDesigns, watch: this.options.watch, setUserId: this.options.setUserId };
          const step = await remoteStep(ctx, deps, scope, this.options.signal());
          result.createdFolders = step.createdFolders;
          result.remote = step.remote;
          if (step.folders && !options.folders) options = { ...options, folders: step.folders };
        } catch (error) {
          if (!isServiceError(error)) throw error;
          remoteProblem = error.problem.kind === 'offline' ? 'offline' : error.problem.kind === 'token-rejected' ? 'sign-in' : 'service-failed';
          engineLog.info('sync', 'the service was not read for changes', error);
          result.remoteSkipped = said('activity.sync.remoteSkipped', { problem: remoteProblem === 'service-failed' ? 'serviceFailed' : remoteProblem === 'sign-in' ? 'signIn' : 'offline' });
          ctx.reportOnce(result.remoteSkipped);
        }
      }
    }
    if (side.stoppedReason === null) {
      result.scan = await scanLocal(ctx, { settle: options.settle ?? 'once', allowManyMissing: options.allowManyMissing, ...(options.folders ? { folders: options.folders } : {}) });
    }
    result.stopped = side.stoppedReason;
    if (side.stoppedReason === null) {
      if (wasStopped) {
        ctx.queue.log('info', said('activity.sync.folderBack'));
        ctx.emit({ type: 'resumed' });
      }
      if (!options.localOnly) side.remoteProblem = remoteProblem;
    }
    side.setPhase('idle');
    return result;
  }
}
