import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../service/server/start-service';
import { until } from '../../harness/until';
import type { WindowFixture } from '../../harness/window';

/**
 * The service of a window opened with `{ serviceDataDir: service.dataDir }`, put by each test in the state it needs:
 * stopped, or answering again on the same port with the same data (its users, tokens and designs kept). Either way the
 * engine asks the service at once (as `design-sync status` does) and so tells the window, rather than waiting for
 * its next probe. The first service's object alone can add users: those a test needs are made as the window opens.
 */
export class StoppableService {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'design-sync-window-service-'));
  private app: WindowFixture | null = null;
  private restarted: RunningService | null = null;
  private running = true;

  /** The window whose service this is (once it is open). */
  of(app: WindowFixture): this {
    this.app = app;
    return this;
  }

  /** Stopped, and the engine knows it. */
  async stopped(): Promise<void> {
    const app = this.window();
    if (this.running) {
      this.running = false;
      await (this.restarted ?? app.service).close();
      this.restarted = null;
    }
    await until('the engine to hear that the service is away', async () => !(await app.engine.connection.checkConnectivity()), 10_000);
  }

  /** Answering, and the engine knows it. */
  async answering(): Promise<void> {
    const app = this.window();
    if (!this.running) {
      this.restarted = await startService({ dataDir: this.dataDir, port: app.service.port });
      this.running = true;
    }
    await until('the engine to hear the service again', () => app.engine.connection.checkConnectivity(), 20_000);
  }

  /** After the window closed: a service started again is stopped, and the data goes. */
  async close(): Promise<void> {
    await this.restarted?.close().catch(() => {});
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private window(): WindowFixture {
    if (!this.app) throw new Error('The window is not open yet.');
    return this.app;
  }
}
