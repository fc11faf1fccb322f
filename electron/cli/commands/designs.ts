import type { Command } from 'commander';
import type { OwnDesigns, OwnDesignFields } from '../../engine/own-designs/own-designs';
import type { OwnDesignState } from '../../engine/own-designs/own-design-states';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { CliError, type CliContext } from '../cli-context';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';
import type { Say } from '../help-words';

interface FieldOptions {
  name?: string;
  excerpt?: string;
  license?: string;
  description?: string;
}

function idOf(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw CliError.of('cli.designs.numberInvalid', { given: JSON.stringify(value) });
  return Number(value);
}

/** A design in a line: its number, its name, whether it is published, its license, its folder, an edit waiting to be sent. */
export function lineOf(design: OwnDesignState, words: Words = ENGLISH_INTL): string {
  const { summary } = design;
  const state = words.formatMessage({ id: 'cli.designs.state' }, { state: summary.state === 'published' ? 'published' : 'draft' });
  return [
    `${summary.id}  ${summary.name}  [${state}]${summary.license ? ` (${summary.license})` : ''}`,
    ...(design.folder ? [words.formatMessage({ id: 'cli.designs.folder' }, { folder: design.folder })] : []),
    ...(design.editsWaiting > 0 ? [words.formatMessage({ id: 'cli.designs.editWaiting' })] : []),
  ].join('  ');
}

const fieldsOf = (options: FieldOptions): OwnDesignFields => ({ name: options.name, excerpt: options.excerpt, license: options.license, description: options.description });

/** Runs one action of the own-designs service (closed with the command's engine). */
async function withOwnDesigns<T>(ctx: CliContext, run: (own: OwnDesigns) => Promise<T>): Promise<T> {
  return run((await ctx.services()).ownDesigns);
}

const withFields = (command: Command, say: Say) => command
  .option(`--name <${say('cli.help.value.name')}>`, say('cli.help.designs.option.name'))
  .option(`--excerpt <${say('cli.help.value.text')}>`, say('cli.help.designs.option.excerpt'))
  .option(`--license <${say('cli.help.value.code')}>`, say('cli.help.designs.option.license'))
  .option('--description <html>', say('cli.help.designs.option.description'));

/**
 * `design-sync designs [list|create|edit|publish|delete]`: your own designs, drafts included, through the same
 * service the window uses (its rules, and a line in the activity list for each action taken in your name).
 */
export const designsCommand: CommandModule = (program, context, say) => {
  const designs = program.command('designs').description(say('cli.help.designs.description'));
  const idArgument = `<${say('cli.help.argumentName.number')}>`;

  designs.command('list', { isDefault: true }).description(say('cli.help.designs.list.description')).option('--json', say('cli.help.option.json'))
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const listed = await withOwnDesigns(ctx, (own) => own.list({ refresh: false }));
      if (options.json) ctx.io.out(JSON.stringify(listed.map((design) => ({ ...design.summary, folder: design.folder, syncState: design.syncState })), null, 2));
      else ctx.io.out(listed.length > 0 ? listed.map((design) => lineOf(design, words)).join('\n') : words.formatMessage({ id: 'cli.designs.none' }));
    });

  withFields(designs.command('create').description(say('cli.help.designs.create.description')), say)
    .action(async (options: FieldOptions) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const made = await withOwnDesigns(ctx, (own) => own.create(fieldsOf(options)));
      ctx.io.out(words.formatMessage({ id: 'cli.designs.created' }, { design: lineOf(made, words) }));
    });

  withFields(designs.command('edit').description(say('cli.help.designs.edit.description')).argument(idArgument, say('cli.help.designs.argument.number')), say)
    .action(async (id: string, options: FieldOptions) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const changed = await withOwnDesigns(ctx, (own) => own.update(idOf(id), fieldsOf(options)));
      ctx.io.out(words.formatMessage({ id: changed.editsWaiting > 0 ? 'cli.designs.savedHere' : 'cli.designs.changed' }, { design: lineOf(changed, words) }));
    });

  designs.command('publish').description(say('cli.help.designs.publish.description')).argument(idArgument, say('cli.help.designs.argument.number'))
    .action(async (id: string) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const published = await withOwnDesigns(ctx, (own) => own.publish(idOf(id)));
      ctx.io.out(words.formatMessage({ id: 'cli.designs.published' }, { design: lineOf(published, words) }));
    });

  designs.command('delete').description(say('cli.help.designs.delete.description')).argument(idArgument, say('cli.help.designs.argument.number'))
    .option('--yes', say('cli.help.designs.delete.option.yes'))
    .action(async (id: string, options: { yes?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const designId = idOf(id);
      // Answered with y or yes (j or ja in Dutch and German): main.ts's confirmOnTerminal.
      const confirmed = options.yes === true || (await ctx.io.confirm?.(words.formatMessage({ id: 'cli.designs.deleteQuestion' }, { id: String(designId) }))) === true;
      if (!confirmed) throw CliError.of('cli.designs.deleteUnconfirmed');
      const deleted = await withOwnDesigns(ctx, (own) => own.delete(designId));
      ctx.io.out(words.formatMessage({ id: 'cli.designs.deleted' }, { name: deleted.name }));
    });
};
