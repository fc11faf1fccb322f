import type { Command } from 'commander';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';

export const logoutCommand: CommandModule = (program: Command, context, say) => {
  program
    .command('logout')
    .description(say('cli.help.logout.description'))
    .action(async () => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      // Signing out sends nothing: it is never refused, whatever --service says (applied once signed out).
      const { account, lifecycle } = await ctx.services({ ignoreTokenProblem: true, keepService: true });
      const store = account.session.store;
      // An unusable token file (e.g. readable by others) is removed all the same.
      const had = account.session.state.status !== 'signed-out' || account.tokenProblem !== null;
      await account.signOut();
      if (had) {
        ctx.io.out(words.formatMessage({ id: 'cli.logout.signedOut' }, { storage: store.describe() }));
        ctx.io.out(words.formatMessage({ id: 'cli.logout.stillAuthorized' }));
      } else {
        ctx.io.out(words.formatMessage({ id: 'cli.logout.noToken' }));
      }
      const requested = ctx.requestedService();
      if (requested) await lifecycle.setServiceUrl(requested);
    });
};
