import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { builtInRuleLabel, builtInRuleTool, heldBackGroupWords, holdReasonWords } from '../../../shared/sync/held-back-words';
import { engineWordsText, type EngineWords } from '../../../shared/i18n/engine-words';
import type { Words } from '../../../shared/i18n/create-intl';
import type { SyncService } from '../../engine/runtime/sync-service';
import { IgnoreFileError, ignoreFileProblemWords } from '../../engine/sync/ignore/ignore-files';
import { builtInRules, compileIgnoreFile, holdReason, IGNORE_FILE, parseIgnoreText } from '../../engine/sync/ignore/never-sent-rules';
import { CliError, type CliContext } from '../cli-context';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';

/** The profile's sync folder and its sync engine; refused, in words, when none is chosen. */
async function syncFolderOf(ctx: CliContext): Promise<{ syncService: SyncService; root: string }> {
  const syncService = (await ctx.services()).sync;
  const root = syncService.partsIfChosen()?.sync.root.current() ?? null;
  if (!root) throw CliError.of('cli.ignore.noSyncFolder');
  return { syncService, root: root.path };
}

/**
 * Why an ignore file of the sync folder (`file`, relative to it) cannot be used, in the run's words; its English
 * (`problem`, as the sync engine said it) when it has no facts.
 */
async function ignoreProblemText(root: string, file: string, problem: string, words: Words): Promise<string> {
  const facts = await ignoreFileProblemWords(root, file);
  return facts ? engineWordsText(words, facts) : problem;
}

/** A refusal that is an ignore file's problem: its English for the log, said in the run's language from its facts. */
function ignoreRefusal(problem: string, facts: EngineWords | null | undefined): CliError {
  return new CliError(problem, 1, facts ?? null);
}

/** The lines of the ignore file's text, without the trailing empty one. */
const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split(/\r?\n/));

/**
 * Saves the ignore file. When no other process syncs this profile, the folder is looked at again at once (what is never
 * sent now is held back, what waited of it is withdrawn); when one does (the app, `sync --watch`), it takes the change
 * up itself from its watcher: two processes never work on the same sync folder.
 */
async function save(ctx: CliContext, syncService: SyncService, text: string, words: Words): Promise<void> {
  const { sync } = syncService.syncParts();
  const elsewhere = syncService.otherProcessSyncs();
  try {
    await sync.saveIgnoreFile(text, { scan: !elsewhere });
  } catch (error) {
    if (error instanceof IgnoreFileError) throw ignoreRefusal(error.message, error.words);
    throw error;
  }
  if (elsewhere) ctx.io.out(words.formatMessage({ id: 'cli.ignore.appTakesItUp' }));
}

function printHeldBack(ctx: CliContext, syncService: SyncService, words: Words): void {
  const groups = syncService.syncParts().sync.heldBack.groups();
  if (groups.length === 0) {
    ctx.io.out(words.formatMessage({ id: 'cli.ignore.heldBackNothing' }));
    return;
  }
  ctx.io.out(words.formatMessage({ id: 'cli.ignore.heldBackTitle' }));
  for (const group of groups) ctx.io.out(`  ${heldBackGroupWords(group, words)}: ${group.examples.join(', ')}${group.count > group.examples.length ? ', …' : ''}`);
}

/**
 * `design-sync ignore`: what is never sent from the sync folder. Without a subcommand, the ignore file's lines, what the
 * last scan held back and why, and how many built-in entries there are (`--built-in` lists them with where each tool
 * documents its habit). `add` and `remove` change the ignore file a line at a time; `check` says of paths whether they
 * are sent, and if not, which rule holds them back.
 */
export const ignoreCommand: CommandModule = (program, context, say) => {
  const ignore = program
    .command('ignore')
    .description(say('cli.help.ignore.description', { file: IGNORE_FILE }))
    .option('--built-in', say('cli.help.ignore.option.builtIn'))
    .option('--json', say('cli.help.option.json'))
    .action(async (options: { builtIn?: boolean; json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { syncService, root } = await syncFolderOf(ctx);
      const { sync } = syncService.syncParts();
      const file = await sync.ignoreFile();
      if (options.json) {
        ctx.io.out(JSON.stringify({ ignoreFile: file, heldBack: sync.heldBack.groups(), builtIn: builtInRules() }, null, 2));
        return;
      }
      const path = file.path ?? IGNORE_FILE;
      ctx.io.out(file.text === '' ? words.formatMessage({ id: 'cli.ignore.fileNone' }, { path }) : path);
      for (const line of linesOf(file.text)) ctx.io.out(`  ${line}`);
      if (file.problem) ctx.io.out(words.formatMessage({ id: 'cli.ignore.problem' }, { problem: await ignoreProblemText(root, IGNORE_FILE, file.problem, words) }));
      printHeldBack(ctx, syncService, words);
      const rules = builtInRules();
      if (!options.builtIn) {
        ctx.io.out(words.formatMessage({ id: 'cli.ignore.builtInCount' }, { count: rules.length }));
        return;
      }
      ctx.io.out(words.formatMessage({ id: 'cli.ignore.builtInTitle' }));
      for (const rule of rules) ctx.io.out(`  ${builtInRuleTool(rule, words)} — ${builtInRuleLabel(rule, words)}: ${rule.patterns.join('  ')}\n      ${rule.source}`);
    });

  ignore
    .command('add')
    .description(say('cli.help.ignore.add.description', { file: IGNORE_FILE }))
    .argument(`<${say('cli.help.argumentName.pattern')}...>`, say('cli.help.ignore.add.argument.pattern'))
    .action(async (patterns: string[]) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { syncService, root } = await syncFolderOf(ctx);
      const file = await syncService.syncParts().sync.ignoreFile();
      if (file.problem && file.text === '') throw ignoreRefusal(file.problem, await ignoreFileProblemWords(root, IGNORE_FILE));
      const lines = linesOf(file.text);
      const added = patterns.filter((pattern, index) => !lines.includes(pattern) && patterns.indexOf(pattern) === index);
      if (added.length === 0) {
        ctx.io.out(words.formatMessage({ id: 'cli.ignore.alreadyHeld' }, { file: IGNORE_FILE, count: patterns.length }));
        return;
      }
      await save(ctx, syncService, [...lines, ...added].join('\n') + '\n', words);
      ctx.io.out(words.formatMessage({ id: 'cli.ignore.added' }, { path: file.path, patterns: added.join(', ') }));
      printHeldBack(ctx, syncService, words);
    });

  ignore
    .command('remove')
    .description(say('cli.help.ignore.remove.description', { file: IGNORE_FILE }))
    .argument(`<${say('cli.help.argumentName.pattern')}...>`, say('cli.help.ignore.remove.argument.pattern'))
    .action(async (patterns: string[]) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { syncService } = await syncFolderOf(ctx);
      const file = await syncService.syncParts().sync.ignoreFile();
      const lines = linesOf(file.text);
      const missing = patterns.filter((pattern) => !lines.includes(pattern));
      if (missing.length > 0) throw CliError.of('cli.ignore.noSuchLine', { file: IGNORE_FILE, count: missing.length, lines: missing.map((line) => JSON.stringify(line)).join(', ') });
      await save(ctx, syncService, lines.filter((line) => !patterns.includes(line)).join('\n'), words);
      ctx.io.out(words.formatMessage({ id: 'cli.ignore.removed' }, { path: file.path, patterns: patterns.join(', ') }));
      printHeldBack(ctx, syncService, words);
    });

  ignore
    .command('check')
    .description(say('cli.help.ignore.check.description'))
    .argument(`<${say('cli.help.argumentName.path')}...>`, say('cli.help.ignore.check.argument.path'))
    .action(async (paths: string[]) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { syncService, root } = await syncFolderOf(ctx);
      const file = await syncService.syncParts().sync.ignoreFile();
      if (file.problem) throw ignoreRefusal(file.problem, await ignoreFileProblemWords(root, IGNORE_FILE));
      const rootRules = compileIgnoreFile(IGNORE_FILE, parseIgnoreText(file.text).lines);
      for (const raw of paths) {
        const absolute = isAbsolute(raw) ? raw : join(root, raw);
        const inside = relative(root, absolute).split(sep).join('/');
        if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw CliError.of('cli.ignore.notInside', { path: raw, root });
        // A folder is matched as one (renders/), as the scan matches it.
        const rel = existsSync(absolute) && statSync(absolute).isDirectory() ? `${inside}/` : inside;
        const folderText = rel.includes('/') ? await syncService.syncParts().sync.ignoreFileOf(rel.split('/')[0]!) : null;
        if (folderText?.problem) throw ignoreRefusal(folderText.problem, folderText.problemWords);
        const reason = holdReason(rel, { root: rootRules, folder: folderText?.compiled ?? null });
        ctx.io.out(reason ? words.formatMessage({ id: 'cli.ignore.checkNeverSent' }, { path: rel, reason: holdReasonWords(reason, words) }) : words.formatMessage({ id: 'cli.ignore.checkSent' }, { path: rel }));
      }
    });
};
