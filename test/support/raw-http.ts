import { request as httpRequest } from 'node:http';

export interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A raw HTTP request, so that the Host header and the body are exactly what a test says (no client adds to them). */
export function rawHttp(url: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest({
      host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? 'GET',
      headers: { connection: 'close', ...options.headers },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
