import { isServiceError } from '../../engine/api/service-error';
import type { EngineServices } from '../../engine/composition/engine-services';
import { modelFileSource } from '../../engine/library/model-files';
import { installedSlicers, openModelFile, slicersView } from '../../engine/library/open-in-slicer';
import { isEngineError } from '../../engine/runtime/engine-error';
import { detachedSpawner, systemOpenCommand } from '../../engine/slicers/launch-slicer';
import { slicerNamed } from '../../engine/slicers/slicer-choice';
import type { SlicersView } from '../../../shared';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';

function slicerLines(view: SlicersView): string[] {
  return view.slicers.map((slicer) => `${slicer.id === view.chosen ? '*' : ' '} ${slicer.name}  [${slicer.id}]  ${slicer.types.join(', ')}`);
}

const problemWords = (error: unknown): never => {
  if (isEngineError(error) || isServiceError(error)) throw new CliError(error.problem.message);
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
    throw new CliError(wanted === undefined
      ? `${cached.summary.name} has no model file a slicer opens${names.length > 0 ? `; its files: ${names.join(', ')}` : ''}.`
      : `${cached.summary.name} has no file ${JSON.stringify(file)}; its files: ${names.join(', ') || 'none'}.`);
  }
  return found.id;
}

/**
 * `design-sync open <design> [file] [--slicer <id|name>] [--list]`: a design's model file opened in a slicer found on
 * this computer (fetched into the cache first when it is not kept), or with the system's default app; the choice is
 * remembered as the window's is. `design-sync slicers`: the slicers found, and which types each opens.
 */
export const openCommand: CommandModule = (program, context) => {
  program
    .command('open')
    .description('open a design\'s model file (STL, 3MF, OBJ, AMF, PLY, STEP, G-code) in a slicer found on this computer')
    .argument('<design>', 'the design id or slug')
    .argument('[file]', 'which of its files: its name, its file name or its document id (default: its first model file)')
    .option('--slicer <id|name>', 'the slicer to open it with (its name or id from --list, or "system" for the system\'s default app); remembered')
    .option('--list', 'list the slicers that open this file, the one it opens in marked with *')
    .option('--json', 'print the answer as JSON')
    .action(async (design: string, file: string | undefined, options: { slicer?: string; list?: boolean; json?: boolean }) => {
      const ctx = context();
      const services = await ctx.services();
      const { modelFiles } = services;
      const documentId = await documentToOpen(services, design, file);
      if (options.list) {
        const view = await slicersView(modelFiles, documentId).catch(problemWords);
        ctx.io.out(options.json ? JSON.stringify(view, null, 2) : slicerLines(view).join('\n'));
        return;
      }
      let slicer: string | undefined;
      if (options.slicer !== undefined) {
        const named = slicerNamed(await installedSlicers(), options.slicer);
        if (named === null) {
          const names = (await slicersView(modelFiles, documentId).catch(problemWords)).slicers.map((found) => found.name);
          throw new CliError(`No slicer ${JSON.stringify(options.slicer)} was found that could be told apart; found: ${names.join(', ')}.`);
        }
        slicer = named === 'system' ? 'system' : named.id;
      }
      const opened = await openModelFile(modelFiles, { documentId, slicer }, AbortSignal.timeout(10 * 60_000)).catch(problemWords);
      if (opened.path !== null) {
        const command = systemOpenCommand(process.platform, opened.path);
        try {
          await detachedSpawner(command);
        } catch (error) {
          throw new CliError(`Your system could not open ${opened.path} (${error instanceof Error ? error.message : String(error)}): it may have no app for its type. Choose a slicer with --slicer (see --list).`);
        }
      }
      if (options.json) ctx.io.out(JSON.stringify({ opened: true, slicer: opened.slicer, path: opened.path }, null, 2));
      else ctx.io.out(`Opened in ${opened.slicer.id === 'system' ? 'the system\'s default app' : opened.slicer.name}${opened.path ? `: ${opened.path}` : ''}.`);
    });

  program
    .command('slicers')
    .description('list the slicers found on this computer and the file types each opens (* the last one chosen)')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const { modelFiles } = await ctx.services();
      const view = await slicersView(modelFiles, undefined);
      ctx.io.out(options.json ? JSON.stringify(view, null, 2) : slicerLines(view).join('\n'));
    });
};
