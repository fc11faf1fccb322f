/**
 * Electronegativity (Doyensec's Electron security scanner) over the shell: electron/shell and electron/preload, scanned
 * together so that its global checks (navigation limits, permission handler, CSP) see the whole main process. Any
 * finding above LOW must be explained in docs/security.md's "Electronegativity" section, and every explanation there
 * must still match a finding. Offline, in a process of its own (test/support/electronegativity-runner.mjs).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCANNED = ['electron/shell', 'electron/preload'] as const;
const RUNNER = resolve('test/support/electronegativity-runner.mjs');
const SECURITY_DOC = resolve('docs/security.md');
/** Electronegativity's severities: INFORMATIONAL 0, LOW 1, MEDIUM 2, HIGH 3. */
const LOW = 1;
/**
 * Checks that block at any severity: Electronegativity rates a visible `nodeIntegration: true` (or in workers or
 * subframes) only INFORMATIONAL, yet it is the one setting our rules forbid outright.
 */
const BLOCKING_AT_ANY_SEVERITY = new Set(['NODE_INTEGRATION_JS_CHECK', 'NODE_INTEGRATION_HTML_CHECK']);
const blocks = (finding: Finding) => finding.severityValue > LOW || BLOCKING_AT_ANY_SEVERITY.has(finding.id);

interface Finding { id: string; file: string; line: number; severity: string; severityValue: number; description: string; sample?: string }
interface ScanResult { errors: { file: string; message: string; tolerable: boolean }[]; findings: Finding[] }
interface Accepted { id: string; file: string; reason: string; provenBy: string }

/** The rows of the table in docs/security.md's Electronegativity section: check, file (or "(global)"), reason, test. */
function acceptedFindings(): Accepted[] {
  const doc = readFileSync(SECURITY_DOC, 'utf8');
  const start = doc.indexOf('\n## Electronegativity');
  if (start < 0) throw new Error('docs/security.md has no "## Electronegativity" section');
  const next = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*`([^`]+)`\s*\|(.+)\|\s*`([^`]+)`\s*\|\s*$/gm)].map((row) => ({
    id: row[1]!,
    file: row[2]!,
    reason: row[3]!.trim(),
    provenBy: row[4]!,
  }));
}

const explains = (accepted: Accepted, finding: Finding) => accepted.id === finding.id && accepted.file === finding.file;
const unexplained = (findings: Finding[], accepted: Accepted[]) =>
  findings.filter((finding) => blocks(finding) && !accepted.some((row) => explains(row, finding)));
const describeFinding = (finding: Finding) => `${finding.severity} ${finding.id} ${finding.file}:${finding.line} ${finding.description}${finding.sample ? ` — ${finding.sample}` : ''}`;

/** Copies the scanned folders into `<dir>/electron/…` and reports files as `electron/…` (global findings: "(global)"). */
function stage(dir: string, plant?: { path: string; code: string }): string {
  const root = join(dir, 'electron');
  for (const folder of SCANNED) {
    if (existsSync(folder)) cpSync(folder, join(dir, folder), { recursive: true });
  }
  if (plant) {
    mkdirSync(join(dir, plant.path, '..'), { recursive: true });
    writeFileSync(join(dir, plant.path), plant.code);
  }
  return root;
}

async function scan(folders: string[]): Promise<ScanResult[]> {
  const output = join(work, 'findings.json');
  await promisify(execFile)(process.execPath, [RUNNER, output, ...folders], { timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
  const results = JSON.parse(readFileSync(output, 'utf8')) as Record<string, ScanResult>;
  return folders.map((folder) => {
    const result = results[folder]!;
    return { ...result, findings: result.findings.map((finding) => ({ ...finding, file: finding.file === 'N/A' ? '(global)' : `electron/${finding.file}` })) };
  });
}

const missing = SCANNED.filter((folder) => !existsSync(folder));
const work = mkdtempSync(join(tmpdir(), 'electronegativity-'));
let real: ScanResult;
let planted: ScanResult;

const BAD_WINDOW = {
  path: 'electron/shell/main/careless-window.ts',
  code: [
    "import { BrowserWindow } from 'electron';",
    'export function openCarelessWindow(): BrowserWindow {',
    '  return new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });',
    '}',
    '',
  ].join('\n'),
};

beforeAll(async () => {
  const realRoot = stage(join(work, 'real'));
  const plantedRoot = stage(join(work, 'planted'), BAD_WINDOW);
  [real, planted] = (await scan([realRoot, plantedRoot])) as [ScanResult, ScanResult];
}, 90_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('Electronegativity over the shell', () => {
  it.skipIf(missing.length > 0)(`finds nothing above low (nor Node integration at all) in ${SCANNED.join(' and ')} that docs/security.md does not explain${missing.length ? ` (skipped: ${missing.join(', ')} missing)` : ''}`, () => {
    expect(real.errors.filter((error) => !error.tolerable), 'files Electronegativity could not parse (so did not check)').toEqual([]);
    expect(real.findings.some((finding) => finding.file.startsWith('electron/shell/')), 'the scan saw the shell').toBe(true);
    expect(unexplained(real.findings, acceptedFindings()).map(describeFinding)).toEqual([]);
  });

  it.skipIf(missing.length > 0)('keeps no explanation in docs/security.md for a finding that is gone', () => {
    const stale = acceptedFindings().filter((row) => !real.findings.some((finding) => blocks(finding) && explains(row, finding)));
    expect(stale.map((row) => `${row.id} ${row.file}`)).toEqual([]);
  });

  it('explains each accepted finding, and names a test that exists', () => {
    const rows = acceptedFindings();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.reason.length, `${row.id} ${row.file}`).toBeGreaterThan(40);
      expect(existsSync(row.provenBy), `${row.id}: ${row.provenBy}`).toBe(true);
    }
  });

  it('fails on a window with Node integration on and context isolation off, even beside explained findings (the check itself works)', () => {
    const found = unexplained(planted.findings, acceptedFindings()).filter((finding) => finding.file === 'electron/shell/main/careless-window.ts');
    expect(found.map((finding) => finding.id)).toEqual(expect.arrayContaining(['NODE_INTEGRATION_JS_CHECK', 'CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK']));
  });
});
