import { FileChangedWhileReadError, type FileRead, type UploadFile } from '../api/multipart-upload';
import { sameVersion } from './file-version';
import type { JobContext, PreparedFile } from './job';

/** A file being sent by an upload or a replace, read once for both the request's body and its SHA-1. */
export interface StreamedSend {
  upload: UploadFile;
  /** The SHA-1 of the bytes sent: known once the body was read whole (after the request, always). */
  sha1(): string;
}

/**
 * Records the attempt (the service's name for it, the version sent, its hash when already known) and gives the file
 * to stream; null when the item is no longer running (cancelled a moment ago): then nothing may be sent.
 *
 * What a crash must leave, kept with one durable commit instead of two reads of the file: the attempt row is a light
 * commit; once the file was read whole, and before the body's last bytes go (the service can act on nothing less),
 * the hash of the bytes read joins it in a durable commit. So an attempt the service may have had whole always has
 * its hash (its document is recognised by it after a crash), and one without a hash was never had whole (sent again).
 * The bytes read must be the version prepared (size and modification time, as everywhere in the queue): a file that
 * changed meanwhile cuts the request short, and the runner handles it as a file changed while it was being sent.
 */
export function startStreamedSend(file: PreparedFile, name: string | null, ctx: JobContext): StreamedSend | null {
  const { version } = file;
  const sent = { at: ctx.now(), name, sha1: file.sha1, size: version.size, mtimeMs: version.mtimeMs, inode: version.inode };
  if (!ctx.sending(sent, { untilLastBytes: true })) return null;
  let sha1: string | null = null;
  const beforeLastBytes = async (read: FileRead) => {
    if (read.size !== version.size || !sameVersion(read, version)) throw new FileChangedWhileReadError(file.path);
    if (!(await ctx.confirmSending(read.sha1))) throw new Error('The item is no longer being sent.');
    sha1 = read.sha1;
  };
  return {
    upload: { path: file.path, fileName: file.fileName, beforeLastBytes },
    sha1: () => {
      if (sha1 === null) throw new Error(`${file.path} was sent without being read whole`);
      return sha1;
    },
  };
}
