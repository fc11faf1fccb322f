import type { ServiceClient } from '../api/service-client';
import type { Session } from '../authorization/session';
import type { SignedInUser } from '../authorization/signed-in-user';
import type { DesignCache } from '../cache/design-cache';
import type { QueueStore } from '../queue/queue-store';
import type { Connectivity } from '../runtime/connectivity';
import type { DesignChanges } from '../runtime/design-changes';
import type { SyncEngine } from '../sync/sync-engine';

/**
 * What the own-designs service works with, given by whoever composes the engine (contract/engine-services.ts today):
 * never the engine itself.
 */
export interface OwnDesignsDeps {
  /** The cache: read through `reader`, its designs written only through `designs` (the designs store), pulled with `files`. */
  cache: Pick<DesignCache, 'reader' | 'db' | 'files' | 'designs'>;
  /** The durable queue: edits that wait, the activity list, the open items a design's state is made from. */
  queue: QueueStore;
  session: Session;
  connectivity: Connectivity;
  /** What changed in the cache's designs (it follows the designs store; told by hand when the sign-in changes). */
  changes: DesignChanges;
  /** The background client of the chosen service, or null when none is chosen. */
  client: () => ServiceClient | null;
  /** The client for what a person waits on: one quick retry. Throws a clear problem when no service is chosen. */
  interactiveClient: () => ServiceClient;
  /** Asks the service who the stored token belongs to, when that is not known yet (quietly nothing offline). */
  confirmUser: () => Promise<void>;
  /** The sync folder's engine of the chosen service, or null when no service is chosen. */
  sync: () => SyncEngine | null;
  /** An edit was queued: the queue's runner is started if the background work runs. */
  queueWorkAdded: () => void;
  /** Rule 5: whether the person accepted the content policy (nothing is sent until they do). */
  contentPolicyAccepted: () => boolean;
  /** Follows the engine's state (the content policy accepted, the background started…); returns the function that stops. */
  onStateChange: (listener: () => void) => () => void;
  /** A design deleted on the service: its folder in the sync folder handled at once (to the trash, or kept when changed). */
  designDeleted: (designId: number) => Promise<void>;
}

/** The signed-in user, when the session knows who it is (a token read from storage names nobody until asked). */
export const signedInUserOf = (session: Session): SignedInUser | null => (session.state.status !== 'signed-out' ? session.state.user : null);
