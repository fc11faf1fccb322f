import type { ServiceContext } from '../server/service-context';

/** Placeholder until the demo seed lands: seeds nothing. */
export async function seedDemo(_ctx: ServiceContext): Promise<{ created: boolean; users: number; designs: number }> {
  return { created: false, users: 0, designs: 0 };
}
