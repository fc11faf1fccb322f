/** Where the desktop app's updates come from: electron-builder's publish entry (app-update.yml in a built app). */
export interface UpdateFeed {
  /** The feed's address: the generic server's URL, or the GitHub repository's releases page. */
  feed: string;
  /** 'latest': stable releases. */
  channel: string;
}

/**
 * The feed a publish entry names (provider 'generic' with its url, or 'github' with owner and repo); an error naming
 * the problem for any other entry.
 */
export function updateFeedOf(entry: unknown, where: string): UpdateFeed {
  if (entry === null || typeof entry !== 'object') throw new Error(`${where} is not an update configuration.`);
  const config = entry as Record<string, unknown>;
  const channel = typeof config.channel === 'string' && config.channel !== '' ? config.channel : 'latest';
  if (config.provider === 'generic' && typeof config.url === 'string') return { feed: config.url, channel };
  if (config.provider === 'github' && typeof config.owner === 'string' && typeof config.repo === 'string') {
    return { feed: `https://github.com/${config.owner}/${config.repo}/releases`, channel };
  }
  throw new Error(`${where} names an update provider design-sync does not use (${String(config.provider)}).`);
}
