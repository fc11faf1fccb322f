import type { Command } from 'commander';
import { isServiceError } from '../../engine/api/service-error';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';
import { engineWordsText } from '../../../shared/i18n/engine-words';

export const whoamiCommand: CommandModule = (program: Command, context, say) => {
  program
    .command('whoami')
    .description(say('cli.help.whoami.description'))
    .option('--json', say('cli.help.option.json'))
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { account, connection } = await ctx.services();
      const { session } = account;
      if (session.state.status === 'signed-out') throw new CliError(words.formatMessage({ id: 'cli.whoami.notSignedIn' }));
      const baseUrl = ctx.serviceUrl();
      let user;
      try {
        user = await connection.client().whoami();
      } catch (error) {
        const state = session.state;
        if (state.status === 'needs-sign-in') throw new CliError(words.formatMessage({ id: 'cli.whoami.needsSignIn' }, { reason: state.reason }));
        if (isServiceError(error)) throw new CliError(words.formatMessage({ id: 'cli.whoami.askFailed' }, { message: error.problem.message }));
        throw error;
      }
      session.confirmUser(user);
      const storage = session.store.describe();
      const keptIn = session.store.keptIn?.();
      if (options.json) {
        ctx.io.out(JSON.stringify({ id: user.id, screen_name: user.screen_name, real_name: user.real_name ?? null, service: baseUrl, token_storage: storage }, null, 2));
        return;
      }
      ctx.io.out(words.formatMessage({ id: 'cli.whoami.signedInAs' }, { name: user.screen_name }));
      if (user.real_name) ctx.io.out(words.formatMessage({ id: 'cli.whoami.realName' }, { name: user.real_name }));
      ctx.io.out(words.formatMessage({ id: 'cli.whoami.service' }, { address: baseUrl }));
      ctx.io.out(words.formatMessage({ id: 'cli.whoami.tokenKept' }, { storage: keptIn ? engineWordsText(words, keptIn) : storage }));
    });
};
