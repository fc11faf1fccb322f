import type { ClientRequest } from 'node:http';

/**
 * How a streamed request body is written: chunk by chunk, each chunk handed to the connection (its write done) before
 * the body is asked for the chunk after the next. So a body may reuse a chunk's memory two chunks later: an upload's
 * file is read into two buffers in turn (multipart-upload.ts) instead of a new megabyte for every read, which kept the
 * garbage collector busy while files were sent. At most two chunks wait for the connection at a time.
 *
 * A body that throws cuts the request short (destroyed with that error): the service never gets all of it. A request
 * closed before a chunk went (the service answered early, or it was halted) ends the body without asking for more.
 */
export async function writeStreamedBody(body: AsyncIterable<Uint8Array>, request: ClientRequest): Promise<void> {
  let before: Promise<void> = Promise.resolve();
  try {
    for await (const chunk of body) {
      const written = chunkWritten(request, chunk);
      written.catch(() => undefined); // awaited below, after the next chunk is asked for
      await before;
      before = written;
    }
    await before;
    request.end();
  } catch (error) {
    if (!request.destroyed) request.destroy(error as Error);
  }
}

function chunkWritten(request: ClientRequest, chunk: Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // A write on a request that closes first may never call back.
    const closed = () => reject(new Error('the request was closed before its body was sent'));
    request.once('close', closed);
    request.write(chunk, (error) => {
      request.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}
