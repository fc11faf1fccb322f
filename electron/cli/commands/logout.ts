import type { Command } from 'commander';
import type { CommandModule } from '../command-module';

export const logoutCommand: CommandModule = (program: Command, context) => {
  program
    .command('logout')
    .description('forget the stored token on this computer')
    .action(async () => {
      const ctx = context();
      // Signing out sends nothing: it is never refused, whatever --service says (applied once signed out).
      const { account, lifecycle } = await ctx.services({ ignoreTokenProblem: true, keepService: true });
      const store = account.session.store;
      // An unusable token file (e.g. readable by others) is removed all the same.
      const had = account.session.state.status !== 'signed-out' || account.tokenProblem !== null;
      await account.signOut();
      if (had) {
        ctx.io.out(`Signed out: the token was removed (it was kept ${store.describe()}).`);
        ctx.io.out("design-sync stays authorized on the service until you revoke it on your profile page there.");
      } else {
        ctx.io.out('Not signed in: there was no token to remove.');
      }
      const requested = ctx.requestedService();
      if (requested) await lifecycle.setServiceUrl(requested);
    });
};
