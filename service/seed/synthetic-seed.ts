import type { ServiceContext } from '../server/service-context';

/** Placeholder until the synthetic seed lands. */
export function seedSynthetic(_ctx: ServiceContext, _count: number): void {}
