import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { ServiceContext } from '../server/service-context';
import { faultRuleInput, FaultRules } from './fault-rules';

export const FAULTS_ADMIN_PATH = '/__admin/faults';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

declare module 'fastify' {
  interface FastifyRequest {
    dropAfterWrite?: boolean;
    slowAnswerMs?: number;
  }
}

/** Closes with a TCP reset where Node can, as a crashed server or a broken network would. */
function dropConnection(socket: Socket | null | undefined): void {
  if (!socket) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** Closes the connection once `bytes` more request bytes have been read from it. */
function dropAfterBytes(request: FastifyRequest, bytes: number): void {
  const socket = request.raw.socket;
  const start = socket.bytesRead;
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else if (socket.bytesRead - start >= bytes) {
      clearInterval(timer);
      dropConnection(socket);
    }
  }, 2);
  socket.once('close', () => clearInterval(timer));
}

/**
 * Waits until the request's body has come in whole (read and dropped), as a real service reads a request before it
 * answers with an error: answered earlier, an upload still being sent meets a reset connection instead of the answer.
 */
function bodyReceived(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  if (raw.complete) return Promise.resolve();
  return new Promise<void>((resolve) => {
    raw.once('end', resolve);
    raw.once('close', resolve);
    raw.once('error', () => resolve());
    raw.resume();
  });
}

/**
 * Loopback-only fault injection for reliability tests, off unless the service was started with it.
 * Faults are set from outside the code under test, through /__admin/faults.
 */
export function registerFaultInjection(app: FastifyInstance, ctx: ServiceContext): void {
  if (!ctx.options.faultInjection) return;
  const rules = new FaultRules();

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith(FAULTS_ADMIN_PATH)) {
      if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) throw new HttpError(403, { error: 'fault injection is loopback-only' });
      return;
    }
    for (const rule of rules.draw(request.method, path)) {
      switch (rule.kind) {
        case 'latency':
          await sleep(rule.ms!);
          break;
        case 'status':
          await bodyReceived(request);
          if (rule.retryAfter !== undefined) reply.header('retry-after', String(rule.retryAfter));
          return reply.code(rule.status!).send({ error: `Injected fault: HTTP ${rule.status}` });
        case 'rate_limit':
          await bodyReceived(request);
          return reply.code(429).header('retry-after', String(rule.retryAfter)).send({ error: `Rate limit exceeded. Retry after ${rule.retryAfter} seconds.` });
        case 'drop':
          if (rule.afterBytes) dropAfterBytes(request, rule.afterBytes);
          else {
            dropConnection(request.raw.socket);
            return reply.hijack();
          }
          break;
        case 'drop_after_write':
          request.dropAfterWrite = true;
          break;
        case 'slow_answer':
          request.slowAnswerMs = rule.ms!;
          break;
      }
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.slowAnswerMs) await sleep(request.slowAnswerMs);
    if (request.dropAfterWrite) dropConnection(reply.raw.socket);
    return payload;
  });

  app.get(FAULTS_ADMIN_PATH, async () => rules.list());
  app.post(FAULTS_ADMIN_PATH, async (request, reply) => {
    const body = request.body as unknown;
    const inputs = Array.isArray(body) ? body : [body];
    const parsed = inputs.map((input) => faultRuleInput.safeParse(input));
    const failure = parsed.find((result) => !result.success);
    if (failure && !failure.success) {
      throw badRequest(`invalid fault rule: ${failure.error.issues.map((issue) => `${issue.path.join('.') || 'rule'}: ${issue.message}`).join('; ')}`);
    }
    reply.code(201);
    const added = parsed.map((result) => rules.add(result.data!));
    return Array.isArray(body) ? added : added[0];
  });
  app.delete(FAULTS_ADMIN_PATH, async (_request, reply) => {
    rules.clear();
    return reply.code(204).send();
  });
  app.delete<{ Params: { id: string } }>(`${FAULTS_ADMIN_PATH}/:id`, async (request, reply) => {
    if (!rules.remove(Number(request.params.id))) throw notFound('Fault rule');
    return reply.code(204).send();
  });
}
