import { expect } from 'vitest';
import { z } from 'zod';

/** Parses with the exact key set the spec gives: a missing, extra or mistyped field fails with its path. */
export function expectExactShape<T extends z.ZodRawShape>(shape: T, value: unknown): z.infer<z.ZodObject<T>> {
  const result = z.strictObject(shape).safeParse(value);
  if (!result.success) {
    expect.fail(`does not match the spec's shape:\n${result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}\nvalue: ${JSON.stringify(value).slice(0, 600)}`);
  }
  return result.data as z.infer<z.ZodObject<T>>;
}

export async function json<T = unknown>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, `HTTP ${response.status}: ${text.slice(0, 300)}`).toBe(status);
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

export async function expectEmpty(response: Response, status: number): Promise<void> {
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(status);
  expect(text).toBe('');
}
