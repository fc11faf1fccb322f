/**
 * The child of the kill -9 test of the sync status: opens the profile's engine on the service, with its sync folder,
 * starts the background work and says "sending" once an upload is under way. The parent kills it with SIGKILL then.
 *
 *   node electron/launcher/run-source.mjs test/engine/runtime/sync-status-crash-child.ts <profile dir> <service url> <token>
 */
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';

const [profileDir, serviceUrl, token] = process.argv.slice(2);
if (!profileDir || !serviceUrl || !token) throw new Error('usage: sync-status-crash-child <profile dir> <service url> <token>');

const engine = await openEngine({
  profileDir, serviceUrl, userAgent: 'design-sync-test', settleMs: 50, trash: 'folder',
  tokenStore: () => new MemoryTokenStore(token),
  settingsStore: () => memorySettingsStore({ contentPolicyAcceptedAt: new Date().toISOString() }),
});
const keepAlive = setInterval(() => {}, 60_000);
engine.queue.on('change', () => {
  if (engine.syncStatus.current().reasonCode === 'sending' && engine.queue.status().counts.running > 0) process.stdout.write('sending\n');
});
await engine.startBackground();
process.stdout.write('started\n');
void keepAlive;
