import { isServiceError } from '../../engine/api/service-error';
import type { EngineServices } from '../../engine/composition/engine-services';
import { modelFileSource } from '../../engine/library/model-files';
import { installedSlicers, openModelFile, slicersView } from '../../engine/library/open-in-slicer';
import { isEngineError } from '../../engine/runtime/engine-error';
import { detachedSpawner, systemOpenCommand } from '../../engine/slicers/launch-slicer';
import { slicerNamed } from '../../engine/slicers/slicer-choice';
import type { SlicersView, SlicerView } from '../../../shared';
import { SYSTEM_DEFAULT_SLICER } from '../../../shared/files/model-files';
import type { Words } from '../../../shared/i18n/create-intl';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';

/** A slicer's name; the system's default app in the run's words (the window's). */
const slicerName = (slicer: SlicerView, words: Words) => (slicer.id === SYSTEM_DEFAULT_SLICER ? words.formatMessage({ id: 'design.slicer.systemDefault' }) : slicer.name);

function slicerLines(view: SlicersView, words: Words): string[] {
  return view.slicers.map((slicer) => `${slicer.id === view.chosen ? '*' : ' '} ${slicerName(slicer, words)}  [${slicer.id}]  ${slicer.types.join(', ')}`);
}

const problemWords = (error: unknown): never => {
  // The engine's own refusals are said by runCli in the run's language, from their facts.
  if (isEngineError(error)) throw error;
  if (isServiceError(error)) throw new CliError(error.problem.message);
  throw error;
};

/**
 * The design's file to open: the one named (its document id, its name or its file's name), else its first model file
 * a slicer opens. The design's files are read from the service first when it can be asked.
 */
async function documentToOpen({ library, modelFiles }: Pick<EngineServices, 'library' | 'modelFiles'>, design: string, file: string | undefined): Promise<number> {
  let cached;
  try {
    cached = await library.design(/^\d+$/.test(design.trim()) ? Number(design) : design, AbortSignal.timeout(30_000));
  } catch (error) {
    return problemWords(error);
  }
  const documents = cached.documents.flatMap((raw) => (typeof raw.id === 'number' ? [{ id: raw.id, name: typeof raw.name === 'string' ? raw.name : '', model: modelFileSource(modelFiles, raw.id) }] : []));
  const wanted = file?.trim().toLowerCase();
  const found = wanted === undefined
    ? documents.find((document) => document.model !== null)
    : documents.find((document) => String(document.id) === wanted || document.name.toLowerCase() === wanted || document.model?.fileName.toLowerCase() === wanted);
  if (!found) {
    const names = documents.map((document) => `${document.model?.fileName ?? document.name} (#${document.id})`);
    const files = names.join(', ');
    throw wanted === undefined
      ? CliError.of(names.length > 0 ? 'cli.open.noModelFile' : 'cli.open.noFiles', { design: cached.summary.name, files })
      : CliError.of(names.length > 0 ? 'cli.open.noSuchFile' : 'cli.open.noSuchFileNoFiles', { design: cached.summary.name, file: JSON.stringify(file), files });
  }
  return found.id;
}

/**
 * `design-sync open <design> [file] [--slicer <id|name>] [--list]`: a design's model file opened in a slicer found on
 * this computer (fetched into the cache first when it is not kept), or with the system's default app; the choice is
 * remembered as the window's is. `design-sync slicers`: the slicers found, and which types each opens.
 */
export const openCommand: CommandModule = (program, context, say) => {
  program
    .command('open')
    .description(say('cli.help.open.description'))
    .argument(`<${say('cli.help.argumentName.design')}>`, say('cli.help.argument.design'))
    .argument(`[${say('cli.help.argumentName.file')}]`, say('cli.help.open.argument.file'))
    .option(`--slicer <${say('cli.help.value.slicer')}>`, say('cli.help.open.option.slicer'))
    .option('--list', say('cli.help.open.option.list'))
    .option('--json', say('cli.help.open.option.json'))
    .action(async (design: string, file: string | undefined, options: { slicer?: string; list?: boolean; json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const services = await ctx.services();
      const { modelFiles } = services;
      const documentId = await documentToOpen(services, design, file);
      if (options.list) {
        const view = await slicersView(modelFiles, documentId).catch(problemWords);
        ctx.io.out(options.json ? JSON.stringify(view, null, 2) : slicerLines(view, words).join('\n'));
        return;
      }
      let slicer: string | undefined;
      if (options.slicer !== undefined) {
        const named = slicerNamed(await installedSlicers(), options.slicer);
        if (named === null) {
          const names = (await slicersView(modelFiles, documentId).catch(problemWords)).slicers.map((found) => slicerName(found, words));
          throw CliError.of(names.length > 0 ? 'cli.open.noSuchSlicer' : 'cli.open.noSuchSlicerNoneFound', { slicer: JSON.stringify(options.slicer), found: names.join(', ') });
        }
        slicer = named === 'system' ? 'system' : named.id;
      }
      const opened = await openModelFile(modelFiles, { documentId, slicer }, AbortSignal.timeout(10 * 60_000)).catch(problemWords);
      if (opened.path !== null) {
        const command = systemOpenCommand(process.platform, opened.path);
        try {
          await detachedSpawner(command);
        } catch (error) {
          throw CliError.of('cli.open.systemCouldNotOpen', { path: opened.path, problem: error instanceof Error ? error.message : String(error) });
        }
      }
      if (options.json) ctx.io.out(JSON.stringify({ opened: true, slicer: opened.slicer, path: opened.path }, null, 2));
      else if (opened.slicer.id === SYSTEM_DEFAULT_SLICER) ctx.io.out(words.formatMessage({ id: opened.path ? 'cli.open.openedInSystemApp' : 'cli.open.openedInSystemAppNoPath' }, { path: opened.path ?? '' }));
      else ctx.io.out(words.formatMessage({ id: opened.path ? 'cli.open.openedIn' : 'cli.open.openedInNoPath' }, { slicer: opened.slicer.name, path: opened.path ?? '' }));
    });

  program
    .command('slicers')
    .description(say('cli.help.slicers.description'))
    .option('--json', say('cli.help.option.jsonThem'))
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { modelFiles } = await ctx.services();
      const view = await slicersView(modelFiles, undefined);
      ctx.io.out(options.json ? JSON.stringify(view, null, 2) : slicerLines(view, words).join('\n'));
    });
};
