/**
 * An update check or download that failed, in words a person can act on. electron-updater's errors carry a `code`
 * (ERR_CHECKSUM_MISMATCH, ERR_UPDATER_INVALID_SIGNATURE…), Node's network errors theirs (ECONNREFUSED…), and the feed's
 * HTTP answers a `statusCode`.
 */
export interface UpdateProblem {
  /** What happened and what design-sync does about it. */
  reason: string;
  /**
   * 'refused': a download that did not match what the feed promised (checksum, signature) was thrown away;
   * 'unreachable': the feed could not be reached or answered with an error; 'no-feed': this copy has no feed to ask;
   * 'other': anything else.
   */
  kind: 'refused' | 'unreachable' | 'no-feed' | 'other';
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

export function updateProblem(error: unknown, feed: string | null): UpdateProblem {
  const { code, statusCode, message } = error !== null && typeof error === 'object'
    ? error as { code?: unknown; statusCode?: unknown; message?: unknown }
    : { code: undefined, statusCode: undefined, message: String(error) };
  const text = typeof message === 'string' ? message : String(error);
  const where = feed ? ` at ${feed}` : '';
  if (code === 'ERR_CHECKSUM_MISMATCH' || code === 'ERR_UPDATER_NO_CHECKSUM') {
    return { kind: 'refused', reason: 'The downloaded update did not match the checksum (sha512) its release published, so it was thrown away and nothing was installed. design-sync will download it again later.' };
  }
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE') {
    return { kind: 'refused', reason: `The downloaded update is not signed by design-sync's publisher, so it was thrown away and nothing was installed (${firstLine(text)}).` };
  }
  if (code === 'ENOENT' && /app-update\.yml/.test(text)) {
    return { kind: 'no-feed', reason: 'This copy of design-sync was built without an update feed: install new versions by hand.' };
  }
  if (code === 'ERR_UPDATER_INVALID_UPDATE_INFO' || code === 'ERR_UPDATER_LATEST_VERSION_NOT_FOUND' || code === 'ERR_UPDATER_NO_FILES_PROVIDED' || code === 'ERR_UPDATER_INVALID_VERSION') {
    return { kind: 'unreachable', reason: `The update feed${where} answered with release information design-sync cannot use (${firstLine(text)}). It will be asked again later.` };
  }
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' || typeof statusCode === 'number') {
    const status = typeof statusCode === 'number' ? ` (HTTP ${statusCode})` : '';
    return { kind: 'unreachable', reason: `The update feed${where} did not have the release information${status}. It will be asked again later.` };
  }
  if ((typeof code === 'string' && NETWORK_CODES.has(code)) || /net::ERR_|ECONNREFUSED|ENOTFOUND|socket hang up/.test(text)) {
    return { kind: 'unreachable', reason: `The update feed${where} could not be reached${typeof code === 'string' ? ` (${code})` : ''}. It will be asked again later.` };
  }
  return { kind: 'other', reason: `Checking for updates failed: ${firstLine(text)}. It will be tried again later.` };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
