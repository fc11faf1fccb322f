import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StreamedAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Sends a request whose body is a stream through node:http, with backpressure, so a body of any size
 * takes flat memory. (Node 20's fetch keeps every chunk of a streamed request body until the request
 * ends: nodejs/undici#4058.) Rejects with the socket's error (its code tells whether anything was sent).
 */
export async function sendStreamed(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<StreamedAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const request = send(url, { method, headers, signal });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  // The service may answer early (a refusal) before the whole body is sent: that answer wins.
  // Its own failure shows as the request's error or a missing answer, so it is only kept from going unhandled.
  pipeline(Readable.from(body, { objectMode: false }), request).catch(() => undefined);
  const response = await answered;
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return { status: response.statusCode ?? 0, headers: responseHeaders, text: Buffer.concat(chunks).toString('utf8') };
}
