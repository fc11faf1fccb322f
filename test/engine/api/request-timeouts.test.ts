import { afterEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../electron/engine/api/service-error';
import { describeError } from '../../../electron/engine/log/engine-log';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import type { Timeouts } from '../../../electron/engine/api/transport-limits';
import { closedPort } from '../../support/free-port';
import { designs, drip, neverAnswer, sendJson, startUnacceptingListener, useMisbehavingServices } from '../../support/misbehaving-service';
import { problemOf } from '../../support/problems';

/**
 * Every request is bounded in time, and the message of each timeout says which one fired, at which host, for which
 * request, and what to do. The timeouts are set to tens of milliseconds here through TransportOptions.
 */

const service = useMisbehavingServices(afterEach);

const QUICK: Timeouts = { connectMs: 2_000, firstByteMs: 2_000, idleMs: 2_000, overallMs: 5_000 };

function client(baseUrl: string, timeouts: Partial<Timeouts>, retries = 0) {
  return new ServiceClient({ baseUrl, token: () => 'the-token', retry: { retries, minDelayMs: 5, maxDelayMs: 10 }, timeouts: { ...QUICK, ...timeouts } });
}

async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await promise;
  return { value, ms: performance.now() - started };
}

describe('timeouts of a JSON answer', () => {
  it('a listing dripped one byte at a time fails on the overall timeout, naming it, the host and the request', async () => {
    const dripping = await service((_, response) => drip(response, JSON.stringify(designs(50)), 5));
    const { value: problem, ms } = await timed(problemOf(client(dripping.url, { overallMs: 300, idleMs: 1_000 }).listDesigns({ limit: 50 })));
    expect(problem).toMatchObject({ kind: 'offline', maybeApplied: false });
    expect(problem.message).toMatch(new RegExp(
      `^The service at ${dripping.host} took longer than 300 ms to answer GET /v1/designs \\(overall timeout, after \\d+ bytes\\); check your connection or try again later\\.$`,
    ));
    expect(ms).toBeLessThan(2_000);
  });

  it('a listing dripped past the overall timeout is not asked for again (the longest wait is not waited out twice)', async () => {
    let asked = 0;
    const dripping = await service((_, response) => {
      asked += 1;
      drip(response, JSON.stringify(designs(50)), 5);
    });
    const problem = await problemOf(client(dripping.url, { overallMs: 300, idleMs: 1_000 }, 3).listDesigns({ limit: 50 }));
    expect(problem.message).toMatch(/overall timeout/);
    expect(asked).toBe(1);
  });

  it('an answer that stops coming part-way fails on the idle timeout, saying how much had come', async () => {
    const stalling = await service((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
      response.write('[{"id":1,');
    });
    const { value: problem, ms } = await timed(problemOf(client(stalling.url, { idleMs: 150 }).listDesigns()));
    expect(problem).toMatchObject({ kind: 'offline' });
    expect(problem.message).toBe(
      `The service at ${stalling.host} sent nothing for 150 ms while answering GET /v1/designs (idle timeout, after 9 bytes); check your connection or try again later.`,
    );
    expect(ms).toBeLessThan(2_000);
  });

  it('a service that takes the request and never answers fails on the first-byte timeout', async () => {
    const silent = await service(neverAnswer);
    const { value: problem, ms } = await timed(problemOf(client(silent.url, { firstByteMs: 200 }).whoami()));
    expect(problem).toMatchObject({ kind: 'offline', maybeApplied: false });
    expect(problem.message).toBe(
      `The service did not answer in time: ${silent.host} sent nothing for 200 ms after GET /v1/user/whoami was sent (first-byte timeout); check your connection or try again later.`,
    );
    expect(ms).toBeLessThan(2_000);
  });

  it('a write that gets no answer may have been applied: first-byte timeout with maybeApplied', async () => {
    const silent = await service(neverAnswer);
    const problem = await problemOf(client(silent.url, { firstByteMs: 150 }, 3).createDesign({ name: 'x', excerpt: 'y' }));
    expect(problem).toMatchObject({ kind: 'offline', maybeApplied: true, message: expect.stringMatching(/first-byte timeout/) });
    expect(silent.requests).toHaveLength(1); // a POST whose answer was lost is never sent blindly again
  });

  it('a host that never completes the connection fails on the connect timeout, and a write to it was certainly not applied', async () => {
    const unaccepting = await startUnacceptingListener();
    service.stopAfterTest(unaccepting);
    const { value: problem, ms } = await timed(problemOf(client(unaccepting.url, { connectMs: 150 }).createDesign({ name: 'x', excerpt: 'y' })));
    expect(problem).toMatchObject({ kind: 'offline', maybeApplied: false });
    expect(problem.message).toBe(
      `The service at ${unaccepting.host} cannot be reached: no connection within 150 ms (connect timeout); check your network connection and the service address, or try again later.`,
    );
    expect(ms).toBeLessThan(2_000);
  });

  it('a refused connection says at once that the service cannot be reached, and where, in words (the code is for the log)', async () => {
    const port = await closedPort();
    const started = Date.now();
    const error = await client(`http://127.0.0.1:${port}`, {}).listDesigns().then(() => null, (failure: unknown) => failure);
    const ms = Date.now() - started;
    if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
    expect(error.problem).toMatchObject({ kind: 'offline', maybeApplied: false });
    expect(error.problem.message).toBe(`The service at 127.0.0.1:${port} cannot be reached; check that the service address is right and that you are online, or try again later.`);
    expect(describeError(error)).toMatch(/ECONNREFUSED/);
    expect(ms).toBeLessThan(1_000);
  });

  it('a read that timed out is sent again once, not four times', async () => {
    const silent = await service(neverAnswer);
    const problem = await problemOf(client(silent.url, { firstByteMs: 100 }, 4).listDesigns());
    expect(problem.message).toMatch(/first-byte timeout/);
    expect(silent.requests).toHaveLength(2);
  });

  it('cancelling a request that drips stops it at once, as cancelled', async () => {
    const dripping = await service((_, response) => drip(response, JSON.stringify(designs(50)), 10));
    const controller = new AbortController();
    const listing = problemOf(client(dripping.url, {}).listDesigns({}, controller.signal));
    await dripping.requested(1);
    controller.abort();
    const { value: problem, ms } = await timed(listing);
    expect(problem.kind).toBe('cancelled');
    expect(ms).toBeLessThan(500);
  });

  it('the same request answered in time succeeds under the same timeouts', async () => {
    const quick = await service((_, response) => sendJson(response, designs(3)));
    const page = await client(quick.url, { connectMs: 500, firstByteMs: 500, idleMs: 500, overallMs: 500 }).listDesigns();
    expect(page.items.map((d) => d.id)).toEqual([1, 2, 3]);
  });
});

describe('timeouts of a download', () => {
  it('a file that stops coming fails on the idle timeout, in the stream, with a message and no raw error', async () => {
    const stalling = await service((_, response) => {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': 10_000 });
      response.write(Buffer.alloc(100));
    });
    const response = await client(stalling.url, { idleMs: 150 }).download('/uploads/image/1/large.png');
    let failure: unknown;
    try {
      await response.arrayBuffer();
    } catch (error) {
      failure = error;
    }
    // The body's failure comes through the web stream: the ServiceError itself, or as its cause.
    const serviceError = isServiceError(failure) ? failure : (failure as { cause?: unknown })?.cause;
    expect(isServiceError(serviceError)).toBe(true);
    if (!isServiceError(serviceError)) return;
    expect(serviceError.problem.message).toBe(
      `The service at ${stalling.host} sent nothing for 150 ms while answering GET /uploads/image/1/large.png (idle timeout, after 100 bytes); check your connection or try again later.`,
    );
  });

  it('a download slower than the overall timeout, never idle, completes: downloads have no overall bound', async () => {
    const slow = await service((_, response) => drip(response, 'x'.repeat(40), 10, { 'content-type': 'application/octet-stream' }));
    const response = await client(slow.url, { overallMs: 100, idleMs: 300 }).download('/uploads/document/1/model.stl');
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe('x'.repeat(40));
  });
});

describe('configuration', () => {
  it('defaults: connect 15 s, first byte 30 s, idle 30 s, overall 2 min, answers up to 32 MiB', () => {
    const defaults = new ServiceClient({ baseUrl: 'http://127.0.0.1:1', token: () => null }).transport;
    expect(defaults.timeouts).toEqual({ connectMs: 15_000, firstByteMs: 30_000, idleMs: 30_000, overallMs: 120_000 });
    expect(defaults.maxAnswerBytes).toBe(32 * 1024 * 1024);
  });

  it('DESIGN_SYNC_HTTP overrides the timeouts, the answer limit and the retries, and ignores what it cannot read', async () => {
    const before = process.env.DESIGN_SYNC_HTTP;
    process.env.DESIGN_SYNC_HTTP = 'connect=100, first-byte=120,idle=130,overall=1400,max-answer-bytes=4096,retries=0,bogus=1,idle=x';
    try {
      const configured = new ServiceClient({ baseUrl: 'http://127.0.0.1:1', token: () => null, retry: { retries: 3 } });
      expect(configured.transport.timeouts).toEqual({ connectMs: 100, firstByteMs: 120, idleMs: 130, overallMs: 1400 });
      expect(configured.transport.maxAnswerBytes).toBe(4096);
      expect(configured.transport.policy.retries).toBe(0);
      const silent = await service(neverAnswer);
      const fromEnvironment = new ServiceClient({ baseUrl: silent.url, token: () => null });
      expect((await problemOf(fromEnvironment.listDesigns())).message).toMatch(/sent nothing for 120 ms after GET \/v1\/designs was sent \(first-byte timeout\)/);
      expect(silent.requests).toHaveLength(1);
    } finally {
      if (before === undefined) delete process.env.DESIGN_SYNC_HTTP;
      else process.env.DESIGN_SYNC_HTTP = before;
    }
  });
});
