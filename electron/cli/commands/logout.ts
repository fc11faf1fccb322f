import type { Command } from 'commander';
import type { CommandModule } from '../command-module';

export const logoutCommand: CommandModule = (program: Command, context) => {
  program
    .command('logout')
    .description('forget the stored token on this computer')
    .action(async () => {
      const ctx = context();
      // Signing out sends nothing: it is never refused, whatever --service says (applied once signed out).
      const engine = await ctx.engine({ ignoreTokenProblem: true, keepService: true });
      const store = engine.session.store;
      // An unusable token file (e.g. readable by others) is removed all the same.
      const had = engine.session.state.status !== 'signed-out' || engine.tokenProblem !== null;
      await engine.session.signOut();
      if (had) {
        ctx.io.out(`Signed out: the token was removed (it was kept ${store.describe()}).`);
        ctx.io.out("design-sync stays authorized on the service until you revoke it on your profile page there.");
      } else {
        ctx.io.out('Not signed in: there was no token to remove.');
      }
      const requested = ctx.requestedService();
      if (requested) await engine.setServiceUrl(requested);
    });
};
