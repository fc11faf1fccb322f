import type { Command } from 'commander';
import type { OwnDesigns, OwnDesignFields } from '../../engine/own-designs/own-designs';
import type { OwnDesignState } from '../../engine/own-designs/own-design-states';
import { CliError, type CliContext } from '../cli-context';
import type { CommandModule } from '../command-module';

interface FieldOptions {
  name?: string;
  excerpt?: string;
  license?: string;
  description?: string;
}

function idOf(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new CliError(`The design must be given by its number (e.g. 12), got ${JSON.stringify(value)}.`);
  return Number(value);
}

function lineOf(design: OwnDesignState): string {
  const { summary } = design;
  const state = summary.state === 'published' ? 'published' : 'draft';
  return `${summary.id}  ${summary.name}  [${state}]${summary.license ? ` (${summary.license})` : ''}${design.folder ? `  folder: ${design.folder}` : ''}${design.editsWaiting > 0 ? '  (an edit waits to be sent)' : ''}`;
}

const fieldsOf = (options: FieldOptions): OwnDesignFields => ({ name: options.name, excerpt: options.excerpt, license: options.license, description: options.description });

/** Runs one action of the own-designs service (closed with the command's engine). */
async function withOwnDesigns<T>(ctx: CliContext, run: (own: OwnDesigns) => Promise<T>): Promise<T> {
  return run((await ctx.services()).ownDesigns);
}

const withFields = (command: Command) => command
  .option('--name <name>', 'the design\'s name')
  .option('--excerpt <text>', 'its summary (one or two sentences)')
  .option('--license <code>', 'its license code (cc0, ccby, ccbysa…)')
  .option('--description <html>', 'its description');

/**
 * `design-sync designs [list|create|edit|publish|delete]`: your own designs, drafts included, through the same
 * service the window uses (its rules, and a line in the activity list for each action taken in your name).
 */
export const designsCommand: CommandModule = (program, context) => {
  const designs = program.command('designs').description('list, create, edit, publish or delete your own designs');

  designs.command('list', { isDefault: true }).description('your designs, drafts included, as the cache has them').option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const listed = await withOwnDesigns(ctx, (own) => own.list({ refresh: false }));
      if (options.json) ctx.io.out(JSON.stringify(listed.map((design) => ({ ...design.summary, folder: design.folder, syncState: design.syncState })), null, 2));
      else ctx.io.out(listed.length > 0 ? listed.map(lineOf).join('\n') : 'You have no designs in the cache. Run: design-sync pull');
    });

  withFields(designs.command('create').description('create a design (a draft until you publish it)'))
    .action(async (options: FieldOptions) => {
      const ctx = context();
      const made = await withOwnDesigns(ctx, (own) => own.create(fieldsOf(options)));
      ctx.io.out(`Created the draft ${lineOf(made)}`);
    });

  withFields(designs.command('edit').description('change a design\'s fields (kept and sent later when the service cannot be reached)').argument('<id>', 'the design\'s number'))
    .action(async (id: string, options: FieldOptions) => {
      const ctx = context();
      const changed = await withOwnDesigns(ctx, (own) => own.update(idOf(id), fieldsOf(options)));
      ctx.io.out(changed.editsWaiting > 0 ? `Saved here; sent when the service is back: ${lineOf(changed)}` : `Changed: ${lineOf(changed)}`);
    });

  designs.command('publish').description('publish a draft: anyone can then see it').argument('<id>', 'the design\'s number')
    .action(async (id: string) => {
      const ctx = context();
      const published = await withOwnDesigns(ctx, (own) => own.publish(idOf(id)));
      ctx.io.out(`Published: ${lineOf(published)}`);
    });

  designs.command('delete').description('delete a design on the service (asks first, or --yes)').argument('<id>', 'the design\'s number')
    .option('--yes', 'confirm the deletion without being asked')
    .action(async (id: string, options: { yes?: boolean }) => {
      const ctx = context();
      const designId = idOf(id);
      const confirmed = options.yes === true || (await ctx.io.confirm?.(`Delete the design ${designId} on the service? Its files there go too. [y/N] `)) === true;
      if (!confirmed) throw new CliError(`Nothing was deleted: deleting a design needs your confirmation (answer y, or pass --yes).`);
      const deleted = await withOwnDesigns(ctx, (own) => own.delete(designId));
      ctx.io.out(`Deleted the design “${deleted.name}” on the service.`);
    });
};
