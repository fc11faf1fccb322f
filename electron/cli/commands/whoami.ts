import type { Command } from 'commander';
import { isServiceError } from '../../engine/api/service-error';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';

export const NOT_SIGNED_IN = 'Not signed in. Run: design-sync login';

export const whoamiCommand: CommandModule = (program: Command, context) => {
  program
    .command('whoami')
    .description('show who is signed in, on which service, and where the token is kept')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const { account, connection } = await ctx.services();
      const { session } = account;
      if (session.state.status === 'signed-out') throw new CliError(NOT_SIGNED_IN);
      const baseUrl = ctx.serviceUrl();
      let user;
      try {
        user = await connection.client().whoami();
      } catch (error) {
        const state = session.state;
        if (state.status === 'needs-sign-in') throw new CliError(`${state.reason} Run: design-sync login`);
        if (isServiceError(error)) throw new CliError(`Could not ask the service who is signed in: ${error.problem.message}`);
        throw error;
      }
      session.confirmUser(user);
      const storage = session.store.describe();
      if (options.json) {
        ctx.io.out(JSON.stringify({ id: user.id, screen_name: user.screen_name, real_name: user.real_name ?? null, service: baseUrl, token_storage: storage }, null, 2));
        return;
      }
      ctx.io.out(`Signed in as ${user.screen_name}`);
      if (user.real_name) ctx.io.out(`Real name: ${user.real_name}`);
      ctx.io.out(`Service: ${baseUrl}`);
      ctx.io.out(`Token kept ${storage}`);
    });
};
