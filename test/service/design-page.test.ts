import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../harness/local-service';

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('pageowner').token;
});
afterAll(() => service.stop());

async function create(design: Record<string, unknown>, publish = true): Promise<{ id: number; slug: string }> {
  const created = await (await service.request('POST', '/v1/designs', { token, json: { design } })).json() as { id: number; slug: string };
  if (publish) await service.request('PUT', `/v1/designs/${created.id}`, { token, json: { design: { state: 'published' } } });
  return created;
}

describe('the design page clients link to', () => {
  it('shows a published design by slug with its attribution, as text under a strict CSP', async () => {
    const design = await create({ name: 'Page <b>gear</b>', excerpt: 'Teeth & all', license: 'ccbysa', description: '<p>Line one</p><script>alert(1)</script><p>Line <i>two</i></p>' });
    const response = await service.request('GET', `/designs/${design.slug}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'.*img-src 'self'/);
    const page = await response.text();
    expect(page).toContain('Page &lt;b&gt;gear&lt;/b&gt;');
    expect(page).toContain('by pageowner, licensed Creative Commons Attribution-ShareAlike.');
    expect(page).toContain('<p>Line one</p>');
    expect(page).toContain('<p>Line two</p>');
    expect(page).not.toContain('alert(1)');
  });

  it('answers 404 for a draft or an unknown design', async () => {
    const draft = await create({ name: 'Unpublished page', excerpt: 'x' }, false);
    expect((await service.request('GET', `/designs/${draft.slug}`)).status).toBe(404);
    expect((await service.request('GET', '/designs/nothing-here')).status).toBe(404);
  });
});
