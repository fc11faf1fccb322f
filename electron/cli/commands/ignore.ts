import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { heldBackGroupWords, holdReasonWords } from '../../../shared';
import type { SyncService } from '../../engine/runtime/sync-service';
import { IgnoreFileError } from '../../engine/sync/ignore/ignore-files';
import { builtInRules, compileIgnoreFile, holdReason, IGNORE_FILE, parseIgnoreText } from '../../engine/sync/ignore/never-sent-rules';
import { CliError, type CliContext } from '../cli-context';
import type { CommandModule } from '../command-module';

/** The profile's sync folder and its sync engine; refused, in words, when none is chosen. */
async function syncFolderOf(ctx: CliContext): Promise<{ syncService: SyncService; root: string }> {
  const syncService = (await ctx.services()).sync;
  const root = syncService.partsIfChosen()?.sync.root.current() ?? null;
  if (!root) throw new CliError('No sync folder is chosen yet: the ignore file is kept in it. Choose one with design-sync sync <folder>.');
  return { syncService, root: root.path };
}

/** The lines of the ignore file's text, without the trailing empty one. */
const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split(/\r?\n/));

/**
 * Saves the ignore file. When no other process syncs this profile, the folder is looked at again at once (what is never
 * sent now is held back, what waited of it is withdrawn); when one does (the app, `sync --watch`), it takes the change
 * up itself from its watcher: two processes never work on the same sync folder.
 */
async function save(ctx: CliContext, syncService: SyncService, text: string): Promise<void> {
  const { sync } = syncService.syncParts();
  const elsewhere = syncService.otherProcessSyncs();
  try {
    await sync.saveIgnoreFile(text, { scan: !elsewhere });
  } catch (error) {
    if (error instanceof IgnoreFileError) throw new CliError(error.message);
    throw error;
  }
  if (elsewhere) ctx.io.out('The app syncing this profile takes the change up at once.');
}

function printHeldBack(ctx: CliContext, syncService: SyncService): void {
  const groups = syncService.syncParts().sync.heldBack.groups();
  if (groups.length === 0) {
    ctx.io.out('Held back: nothing, as of the last scan.');
    return;
  }
  ctx.io.out('Held back (never sent), as of the last scan:');
  for (const group of groups) ctx.io.out(`  ${heldBackGroupWords(group)}: ${group.examples.join(', ')}${group.count > group.examples.length ? ', …' : ''}`);
}

/**
 * `design-sync ignore`: what is never sent from the sync folder. Without a subcommand, the ignore file's lines, what the
 * last scan held back and why, and how many built-in entries there are (`--built-in` lists them with where each tool
 * documents its habit). `add` and `remove` change the ignore file a line at a time; `check` says of paths whether they
 * are sent, and if not, which rule holds them back.
 */
export const ignoreCommand: CommandModule = (program, context) => {
  const ignore = program
    .command('ignore')
    .description(`what is never sent from the sync folder: its ${IGNORE_FILE} (gitignore syntax), the built-in list, what was held back`)
    .option('--built-in', 'list every built-in entry: the tool, its patterns, where its habit is documented')
    .option('--json', 'print JSON')
    .action(async (options: { builtIn?: boolean; json?: boolean }) => {
      const ctx = context();
      const { syncService } = await syncFolderOf(ctx);
      const { sync } = syncService.syncParts();
      const file = await sync.ignoreFile();
      if (options.json) {
        ctx.io.out(JSON.stringify({ ignoreFile: file, heldBack: sync.heldBack.groups(), builtIn: builtInRules() }, null, 2));
        return;
      }
      ctx.io.out(`${file.path}${file.text === '' ? ' (none yet: design-sync ignore add <pattern> makes it)' : ''}`);
      for (const line of linesOf(file.text)) ctx.io.out(`  ${line}`);
      if (file.problem) ctx.io.out(`Problem: ${file.problem}`);
      printHeldBack(ctx, syncService);
      const rules = builtInRules();
      if (!options.builtIn) {
        ctx.io.out(`Built-in: ${rules.length} entries (tools' backups, temporaries and locks; the systems' files), never sent whatever the ignore file says. design-sync ignore --built-in lists them.`);
        return;
      }
      ctx.io.out('Built-in (never sent, whatever the ignore file says):');
      for (const rule of rules) ctx.io.out(`  ${rule.tool} — ${rule.label}: ${rule.patterns.join('  ')}\n      ${rule.source}`);
    });

  ignore
    .command('add')
    .description(`add patterns to ${IGNORE_FILE} (one line each, gitignore syntax: *.bak, renders/, draft-*)`)
    .argument('<pattern...>')
    .action(async (patterns: string[]) => {
      const ctx = context();
      const { syncService } = await syncFolderOf(ctx);
      const file = await syncService.syncParts().sync.ignoreFile();
      if (file.problem && file.text === '') throw new CliError(file.problem);
      const lines = linesOf(file.text);
      const added = patterns.filter((pattern, index) => !lines.includes(pattern) && patterns.indexOf(pattern) === index);
      if (added.length === 0) {
        ctx.io.out(`${IGNORE_FILE} already holds ${patterns.length === 1 ? 'it' : 'them'}: nothing changed.`);
        return;
      }
      await save(ctx, syncService, [...lines, ...added].join('\n') + '\n');
      ctx.io.out(`Added to ${file.path}: ${added.join(', ')}.`);
      printHeldBack(ctx, syncService);
    });

  ignore
    .command('remove')
    .description(`remove patterns from ${IGNORE_FILE} (the exact lines)`)
    .argument('<pattern...>')
    .action(async (patterns: string[]) => {
      const ctx = context();
      const { syncService } = await syncFolderOf(ctx);
      const file = await syncService.syncParts().sync.ignoreFile();
      const lines = linesOf(file.text);
      const missing = patterns.filter((pattern) => !lines.includes(pattern));
      if (missing.length > 0) throw new CliError(`${IGNORE_FILE} has no line ${missing.map((line) => JSON.stringify(line)).join(', ')}: design-sync ignore lists its lines.`);
      await save(ctx, syncService, lines.filter((line) => !patterns.includes(line)).join('\n'));
      ctx.io.out(`Removed from ${file.path}: ${patterns.join(', ')}.`);
      printHeldBack(ctx, syncService);
    });

  ignore
    .command('check')
    .description('say of paths (in the sync folder) whether they are sent, and if not, which rule holds them back')
    .argument('<path...>')
    .action(async (paths: string[]) => {
      const ctx = context();
      const { syncService, root } = await syncFolderOf(ctx);
      const file = await syncService.syncParts().sync.ignoreFile();
      if (file.problem) throw new CliError(file.problem);
      const rootRules = compileIgnoreFile(IGNORE_FILE, parseIgnoreText(file.text).lines);
      for (const raw of paths) {
        const absolute = isAbsolute(raw) ? raw : join(root, raw);
        const inside = relative(root, absolute).split(sep).join('/');
        if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new CliError(`${raw} is not inside the sync folder ${root}.`);
        // A folder is matched as one (renders/), as the scan matches it.
        const rel = existsSync(absolute) && statSync(absolute).isDirectory() ? `${inside}/` : inside;
        const folderText = rel.includes('/') ? await syncService.syncParts().sync.ignoreFileOf(rel.split('/')[0]!) : null;
        if (folderText?.problem) throw new CliError(folderText.problem);
        const reason = holdReason(rel, { root: rootRules, folder: folderText?.compiled ?? null });
        ctx.io.out(reason ? `${rel}: never sent (${holdReasonWords(reason)})` : `${rel}: sent`);
      }
    });
};
