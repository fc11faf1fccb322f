import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownUserShape, PAGINATION_HEADERS, publicUserShape, userDesignShape, type OwnUser, type PublicUser } from '../../shared';
import { expectExactShape, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';

let service: TestService;
let ada: { id: number; token: string };
let grace: { id: number; token: string };
let linus: { id: number; token: string };

function follow(followerId: number, followedId: number) {
  service.db.prepare('INSERT INTO follows (follower_id, followed_id, created_at) VALUES (?, ?, ?)').run(followerId, followedId, Date.now());
}

beforeAll(async () => {
  service = await startTestService();
  for (const [name, assign] of [['ada', (v: typeof ada) => (ada = v)], ['grace', (v: typeof ada) => (grace = v)], ['linus', (v: typeof ada) => (linus = v)]] as const) {
    const { user, token } = service.addUser(name);
    assign({ id: user.id, token });
  }
  follow(ada.id, grace.id);
  follow(ada.id, linus.id);
  const design = await json<{ id: number }>(await service.request('POST', '/v1/designs', { token: grace.token, json: { design: { name: 'Grace gear', excerpt: 'x' } } }), 201);
  await service.request('PUT', `/v1/designs/${design.id}`, { token: grace.token, json: { design: { state: 'published' } } });
});
afterAll(() => service.stop());

describe('GET /v1/users', () => {
  it('lists users in the public form with paging', async () => {
    const response = await service.request('GET', '/v1/users?limit=2');
    const users = await json<PublicUser[]>(response, 200);
    expect(users).toHaveLength(2);
    for (const user of users) expectExactShape(publicUserShape, user);
    expect(response.headers.get(PAGINATION_HEADERS.totalCount)).toBe('3');
    expect(response.headers.get(PAGINATION_HEADERS.nextPage)).toBe('2');
  });
});

describe('GET /v1/users/:id', () => {
  it('reads a user by id or slug without a token, in the public form only', async () => {
    const byId = await json<PublicUser>(await service.request('GET', `/v1/users/${ada.id}`), 200);
    const bySlug = await json<PublicUser>(await service.request('GET', '/v1/users/ada'), 200);
    expectExactShape(publicUserShape, byId);
    expect(bySlug).toEqual(byId);
    expect(byId).not.toHaveProperty('email');
  });

  it('answers 404 JSON for an unknown user', async () => {
    expect(await json(await service.request('GET', '/v1/users/nobody'), 404)).toEqual({ error: 'User not found' });
  });
});

describe('GET /v1/users/:user_id/users', () => {
  it('lists the users a user follows, and reads one of them', async () => {
    const followed = await json<PublicUser[]>(await service.request('GET', `/v1/users/ada/users`), 200);
    expect(followed.map((user) => user.screen_name)).toEqual(['grace', 'linus']);
    for (const user of followed) expectExactShape(publicUserShape, user);
    const one = await json<PublicUser>(await service.request('GET', `/v1/users/ada/users/${grace.id}`), 200);
    expectExactShape(publicUserShape, one);
    expect(one.screen_name).toBe('grace');
  });

  it('answers 404 for a user not in that list', async () => {
    await json(await service.request('GET', `/v1/users/grace/users/${ada.id}`), 404);
  });

  it('lists the designs of a followed user in the user-designs form', async () => {
    const designs = await json<unknown[]>(await service.request('GET', `/v1/users/ada/users/grace/designs`), 200);
    expect(designs).toHaveLength(1);
    expectExactShape(userDesignShape, designs[0]);
  });
});

describe('GET /v1/user/whoami', () => {
  it('reads the authenticated user in the own form, never echoing a token', async () => {
    const me = await json<OwnUser>(await service.request('GET', '/v1/user/whoami', { token: ada.token }), 200);
    expectExactShape(ownUserShape, me);
    expect(me).toMatchObject({ id: ada.id, screen_name: 'ada', authentication_token: null, role: 'user', slug: 'ada' });
  });

  it('needs a token', async () => {
    await json(await service.request('GET', '/v1/user/whoami'), 401);
  });
});

describe('PUT /api/users/whoami', () => {
  it('changes the sent profile fields and answers 200 with the own form', async () => {
    const me = await json<OwnUser>(await service.request('PUT', '/api/users/whoami', {
      token: linus.token, json: { user: { real_name: 'Linus T.', location: 'Portland', wants_newsletter: true } },
    }), 200);
    expectExactShape(ownUserShape, me);
    expect(me).toMatchObject({ real_name: 'Linus T.', location: 'Portland', wants_newsletter: true });
    const again = await json<OwnUser>(await service.request('GET', '/v1/user/whoami', { token: linus.token }), 200);
    expect(again).toMatchObject({ real_name: 'Linus T.', location: 'Portland', wants_newsletter: true });
  });

  it('refuses fields that cannot be changed or have the wrong type, changing nothing', async () => {
    const body = await json(await service.request('PUT', '/api/users/whoami', {
      token: linus.token, json: { user: { role: 'admin', show_random: 'maybe', about: 7 } },
    }), 422);
    expect(body).toEqual({ errors: { role: ['is not a field you can change'], show_random: ['must be true or false'], about: ['must be text'] } });
    expect((await json<OwnUser>(await service.request('GET', '/v1/user/whoami', { token: linus.token }), 200)).role).toBe('user');
  });

  it('needs a token', async () => {
    await json(await service.request('PUT', '/api/users/whoami', { json: { user: { location: 'x' } } }), 401);
  });
});
