import { expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Design } from '../../shared';
import { expectEmpty, json } from '../support/conformance';
import type { TestService } from '../../harness/local-service';

export const FIXTURES = resolve(import.meta.dirname, '../fixtures');

export function fixture(relativePath: string): Buffer {
  return readFileSync(join(FIXTURES, relativePath));
}

/** A multipart form as a browser or Rails client sends it: <resource>[file], and optional name/description. */
export function uploadForm(
  resource: 'image' | 'document', fileName: string | null, content: Uint8Array | null, fields: { name?: string; description?: string } = {},
): FormData {
  const form = new FormData();
  if (fields.name !== undefined) form.append(`${resource}[name]`, fields.name);
  if (fields.description !== undefined) form.append(`${resource}[description]`, fields.description);
  if (fileName !== null && content !== null) form.append(`${resource}[file]`, new Blob([content]), fileName);
  return form;
}

export async function createDesign(service: TestService, token: string, options: { publish?: boolean; name?: string } = {}): Promise<Design> {
  const design = await json<Design>(
    await service.request('POST', '/v1/designs', { token, json: { design: { name: options.name ?? 'Test design', excerpt: 'For uploads' } } }),
    201,
  );
  if (options.publish) {
    await expectEmpty(await service.request('PUT', `/v1/designs/${design.id}`, { token, json: { design: { state: 'published' } } }), 204);
  }
  return design;
}

export async function getDesign(service: TestService, token: string, id: number): Promise<Design> {
  return json<Design>(await service.request('GET', `/v1/designs/${id}`, { token }), 200);
}

/** Bytes of a GET, asserting its status. */
export async function bytesOf(response: Response, status = 200): Promise<Buffer> {
  const body = Buffer.from(await response.arrayBuffer());
  expect(response.status, body.toString('utf8', 0, 300)).toBe(status);
  return body;
}

/** Files left in the service's tmp/ (uploads in flight, staging directories). */
export function tempLeftovers(service: TestService): string[] {
  return readdirSync(join(service.dataDir, 'tmp'));
}
