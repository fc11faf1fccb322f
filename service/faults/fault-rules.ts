import { z } from 'zod';

/**
 * A fault applied to a share of the requests that match it.
 *  - latency: wait `ms` before handling (the request then goes on as usual)
 *  - status: answer `status` (500, 502, 503, 504…) with a JSON error, optionally with Retry-After
 *  - rate_limit: answer 429 with Retry-After: `retryAfter` seconds
 *  - drop: close the connection without an answer; with `afterBytes`, only once that many request bytes arrived
 *  - drop_after_write: handle the request fully (the write happens), then close the connection instead of answering
 *  - slow_answer: handle the request fully, then hold the answer `ms` before sending it (a snapshot read now, delivered late)
 */
export const faultRuleInput = z.strictObject({
  kind: z.enum(['latency', 'status', 'rate_limit', 'drop', 'drop_after_write', 'slow_answer']),
  /** Share of matching requests affected, 0..1. */
  share: z.number().min(0).max(1).default(1),
  /** Affect at most this many requests, then stop matching. */
  count: z.number().int().positive().optional(),
  method: z.string().toUpperCase().optional(),
  /** A regular expression matched against the path (without the query string). */
  path: z.string().optional().refine((source) => {
    if (source === undefined) return true;
    try { new RegExp(source); return true; } catch { return false; }
  }, 'path must be a valid regular expression'),
  ms: z.number().int().min(0).max(600_000).optional(),
  status: z.number().int().min(400).max(599).optional(),
  retryAfter: z.number().int().min(0).max(86_400).optional(),
  afterBytes: z.number().int().min(0).optional(),
}).superRefine((rule, issues) => {
  if ((rule.kind === 'latency' || rule.kind === 'slow_answer') && rule.ms === undefined) issues.addIssue({ code: 'custom', path: ['ms'], message: `${rule.kind} needs ms` });
  if (rule.kind === 'status' && rule.status === undefined) issues.addIssue({ code: 'custom', path: ['status'], message: 'status needs status' });
  if (rule.kind === 'rate_limit' && rule.retryAfter === undefined) issues.addIssue({ code: 'custom', path: ['retryAfter'], message: 'rate_limit needs retryAfter' });
});
export type FaultRuleInput = z.input<typeof faultRuleInput>;
export type FaultRule = z.output<typeof faultRuleInput> & { id: number; hits: number };

export class FaultRules {
  private rules: FaultRule[] = [];
  private nextId = 1;

  constructor(private readonly random: () => number = Math.random) {}

  add(input: z.output<typeof faultRuleInput>): FaultRule {
    const rule = { ...input, id: this.nextId++, hits: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  /** The rules that fire for this request, counted as hits. */
  draw(method: string, path: string): FaultRule[] {
    const fired: FaultRule[] = [];
    for (const rule of this.rules) {
      if (rule.count !== undefined && rule.hits >= rule.count) continue;
      if (rule.method && rule.method !== method.toUpperCase()) continue;
      if (rule.path && !new RegExp(rule.path).test(path)) continue;
      if (rule.share < 1 && this.random() >= rule.share) continue;
      rule.hits++;
      fired.push(rule);
    }
    return fired;
  }
}
