/**
 * The step generator of the sync fuzz test: a seed gives one plan (the designs the service starts with, then a list
 * of steps), always the same for the same seed. Steps name their targets abstractly ("the file at 0.37 of the
 * sorted files of the folder at 0.5"), so the plan does not depend on timing; the driver resolves them against the
 * folder and the service as they are when the step runs (which does depend on timing).
 */
import { seededRandom } from '../../../../service/seed/seeded-random';

export type FileKind = 'document' | 'image' | 'refused';
/** A file the test writes: `content` and the seed make its bytes (unique per write). */
export interface FileSpec { name: string; kind: FileKind; size: number; content: number }
/** Where a kill -9 lands: after the CLI printed that line (its first), plus jitterMs. */
export type KillAt = 'start' | 'folder' | 'queued' | 'watching';
export interface FaultRule {
  kind: 'latency' | 'status' | 'drop' | 'drop_after_write' | 'slow_answer';
  method?: string;
  path?: string;
  share?: number;
  count?: number;
  ms?: number;
  status?: number;
}

export type Step =
  | { do: 'start' }
  | { do: 'stop' }
  | { do: 'kill'; at: KillAt; jitterMs: number }
  | { do: 'wait'; ms: number }
  | { do: 'idle'; deadlineMs: number }
  | { do: 'add'; folder: number; files: FileSpec[] }
  | { do: 'edit'; folder: number; pick: number; size: number; content: number }
  | { do: 'rename'; folder: number; pick: number; to: string }
  | { do: 'move'; folder: number; pick: number; toFolder: number }
  | { do: 'delete'; folder: number; pick: number }
  | { do: 'new-folder'; name: string; files: FileSpec[] }
  | { do: 'delete-folder'; folder: number }
  | { do: 'remote-add'; design: number; file: FileSpec }
  | { do: 'remote-replace'; design: number; pick: number; size: number; content: number }
  | { do: 'remote-rename'; design: number; pick: number; to: string }
  | { do: 'remote-delete'; design: number; pick: number }
  | { do: 'remote-design'; name: string; files: FileSpec[] }
  | { do: 'fault'; rule: FaultRule }
  | { do: 'clear-faults' }
  | { do: 'confirm'; what: 'delete' | 'design'; via: 'cli' | 'api'; pick: number | 'all' }
  | { do: 'ignored-file'; folder: number; pick: number; byPattern: boolean; form: number; n: number; size: number; content: number }
  | { do: 'edit-ignored'; folder: number; pick: number; size: number; content: number }
  | { do: 'ignore-edit'; scope: 'root' | 'folder'; folder: number; pattern: string; via: IgnoreEditVia; target: number | null };

/**
 * How the test changes an ignore file: 'file' writes it in place, 'rename' writes a file beside it and renames it
 * into place (as most editors save), 'cli' runs `design-sync ignore add|remove` (the engine's saveIgnoreFile).
 */
export type IgnoreEditVia = 'file' | 'rename' | 'cli';

/**
 * The patterns the ignore-file steps add and remove, chosen to meet names the plan makes: `*.scad` and `f*3.*` hold
 * back files of the plan (synced ones too), `r*.txt` files renamed here, `w*` files renamed on the service,
 * `my idea *[05]/` whole new folders, `!f*1.scad` lets some .scad files through again; `*.autosave`, `*.bak2` and
 * `draft-*` only names the ignored-file steps make.
 */
export const IGNORE_POOL = ['*.autosave', '*.bak2', 'draft-*', '*.scad', 'f*3.*', 'r*.txt', 'w*', 'my idea *[05]/', '!f*1.scad'] as const;
/** The share of a plan's steps (before each step but a kill -9) that are about names never sent. */
const IGNORE_SHARE = 0.25;

export interface Plan {
  seed: number;
  /** The user's designs on the service before the first sync, with their files. */
  designs: { name: string; files: FileSpec[] }[];
  /** The lines of the sync folder's .designsyncignore before the first sync (none: no file). */
  ignoreFile: string[];
  steps: Step[];
}

export interface PlanOptions {
  steps: number;
  /** At most this many kill -9 steps. */
  maxKills: number;
  /** The largest batch of files put in one folder at once (while sync is not running). */
  bulkMax: number;
}

const DESIGN_NAMES = ['Spur gear', 'Bracket', 'Hinge', 'Cable clip', 'Lamp shade', 'Knob', 'Phone stand', 'Hook'];
const LIST_PATH = '^/v1/designs/\\d+/(images|documents)$';
const FILE_PATH = '^/v1/designs/\\d+/(images|documents)(/\\d+)?$';

export function planRun(seed: number, options: PlanOptions): Plan {
  const random = seededRandom(seed);
  const float = (min: number, max: number) => min + random() * (max - min);
  const int = (min: number, max: number) => Math.floor(float(min, max + 1));
  const chance = (p: number) => random() < p;
  const oneOf = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let names = 0;
  let contents = 0;
  const fileSpec = (bulk = false): FileSpec => {
    const n = ++names;
    const roll = random();
    const kind: FileKind = bulk ? 'document' : roll < 0.2 ? 'image' : roll < 0.23 ? 'refused' : 'document';
    const ext = kind === 'image' ? 'png' : kind === 'refused' ? 'exe' : oneOf(['stl', 'txt', 'bin', 'scad']);
    const size = bulk || chance(0.7) ? int(1, 4_000) : int(4_000, 300_000);
    return { name: `f${n}.${ext}`, kind, size, content: ++contents };
  };
  const files = (min: number, max: number) => Array.from({ length: int(min, max) }, () => fileSpec());

  const pool = [...DESIGN_NAMES];
  const designs = Array.from({ length: int(2, 5) }, () => {
    const name = pool.splice(Math.floor(random() * pool.length), 1)[0]!;
    return { name, files: files(0, 3) };
  });

  const steps: Step[] = [];
  let running = false;
  let kills = 0;
  const faultRule = (): FaultRule => {
    switch (int(0, 5)) {
      case 0: return { kind: 'latency', method: 'GET', path: LIST_PATH, ms: int(200, 900), share: chance(0.5) ? 1 : float(0.5, 1) };
      case 1: return { kind: 'slow_answer', method: 'GET', path: LIST_PATH, ms: int(200, 900), share: chance(0.5) ? 1 : float(0.5, 1) };
      case 2: return { kind: 'latency', method: oneOf(['POST', 'PATCH']), path: FILE_PATH, ms: int(100, 600), share: float(0.3, 1) };
      case 3: return { kind: 'status', status: oneOf([500, 503]), method: oneOf(['GET', 'POST', 'PATCH', 'DELETE']), share: float(0.2, 0.6), count: int(1, 6) };
      case 4: return { kind: 'drop', method: oneOf(['GET', 'POST', 'PATCH']), path: FILE_PATH, share: float(0.2, 0.5), count: int(1, 4) };
      default: return { kind: 'drop_after_write', method: oneOf(['POST', 'PATCH', 'DELETE']), share: float(0.3, 0.8), count: int(1, 4) };
    }
  };

  // The sync folder starts empty: most runs begin with the first sync (sometimes killed while it makes the folders).
  if (chance(0.85)) {
    if (options.maxKills > 0 && chance(0.3)) {
      steps.push({ do: 'kill', at: oneOf(['start', 'folder', 'folder']), jitterMs: int(0, 40) });
      kills++;
    }
    steps.push({ do: 'start' });
    running = true;
  }

  // Weighted choice of the next step; the engine's steps depend on whether sync runs at that point of the plan.
  const table: [() => number, () => Step][] = [
    [() => 14, () => ({ do: 'add', folder: random(), files: files(1, 3) })],
    [() => (running ? 2 : 6), () => ({ do: 'add', folder: random(), files: Array.from({ length: int(Math.min(20, options.bulkMax), options.bulkMax) }, () => fileSpec(true)) })],
    [() => 8, () => ({ do: 'edit', folder: random(), pick: random(), size: int(1, 20_000), content: ++contents })],
    [() => 6, () => ({ do: 'rename', folder: random(), pick: random(), to: `r${++names}` })],
    [() => 5, () => ({ do: 'move', folder: random(), pick: random(), toFolder: random() })],
    [() => 6, () => ({ do: 'delete', folder: random(), pick: random() })],
    [() => 3, () => ({ do: 'new-folder', name: `my idea ${++names}`, files: files(0, 3) })],
    [() => 1, () => ({ do: 'delete-folder', folder: random() })],
    [() => 5, () => ({ do: 'remote-add', design: random(), file: fileSpec() })],
    [() => 3, () => ({ do: 'remote-replace', design: random(), pick: random(), size: int(1, 20_000), content: ++contents })],
    [() => 3, () => ({ do: 'remote-rename', design: random(), pick: random(), to: `w${++names}` })],
    [() => 4, () => ({ do: 'remote-delete', design: random(), pick: random() })],
    [() => 1, () => ({ do: 'remote-design', name: `Remote part ${++names}`, files: files(0, 2) })],
    [() => 6, () => ({ do: 'fault', rule: faultRule() })],
    [() => 3, () => ({ do: 'clear-faults' })],
    [() => 5, () => ({ do: 'confirm', what: chance(0.7) ? 'delete' : 'design', via: chance(0.5) ? 'cli' : 'api', pick: chance(0.3) ? 'all' : random() })],
    [() => (running ? 0 : 10), () => ({ do: 'start' })],
    [() => (running ? 8 : 0), () => ({ do: 'wait', ms: int(100, 2_500) })],
    [() => (running ? 6 : 0), () => ({ do: 'idle', deadlineMs: int(3_000, 10_000) })],
    [() => (running ? 3 : 0), () => ({ do: 'stop' })],
    [() => (kills < options.maxKills ? 5 : 0), () => {
      const at: KillAt = running ? oneOf(['queued', 'watching', 'watching'] as const) : oneOf(['start', 'folder', 'watching'] as const);
      return { do: 'kill', at, jitterMs: at === 'folder' ? int(0, 25) : int(0, 2_500) };
    }],
  ];
  while (steps.length < options.steps) {
    const weights = table.map(([weight]) => weight());
    let roll = random() * weights.reduce((sum, w) => sum + w, 0);
    const index = weights.findIndex((w) => (roll -= w) < 0);
    const step = table[index === -1 ? 0 : index]![1]();
    steps.push(step);
    if (step.do === 'kill') kills++;
    if (step.do === 'start') running = true;
    if (step.do === 'stop' || step.do === 'kill') running = false;
  }
  const { ignoreFile, withIgnored } = addIgnoreSteps(seed, steps);
  return { seed, designs, ignoreFile, steps: withIgnored };
}

/**
 * The steps about names never sent, drawn from a stream of their own (the seed's other steps stay what they were
 * without them) and put between the others: files with names the built-in list or the ignore file holds back,
 * created or changed, and patterns added to or removed from an ignore file. Never right before a kill -9, whose
 * moment is the step before it.
 */
function addIgnoreSteps(seed: number, steps: readonly Step[]): { ignoreFile: string[]; withIgnored: Step[] } {
  const random = seededRandom((seed ^ 0x5f3759df) >>> 0);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const chance = (p: number) => random() < p;
  const oneOf = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let n = 0;
  // Contents of their own: far from the numbers of the other stream.
  let contents = 1_000_000;
  const ignoreFile = chance(0.3) ? [...new Set([oneOf(IGNORE_POOL), oneOf(IGNORE_POOL)])] : [];
  const ignoreStep = (): Step => {
    const roll = random();
    if (roll < 0.4) return { do: 'ignored-file', folder: random(), pick: random(), byPattern: chance(0.5), form: random(), n: ++n, size: int(1, 4_000), content: ++contents };
    if (roll < 0.55) return { do: 'edit-ignored', folder: random(), pick: random(), size: int(1, 6_000), content: ++contents };
    const scope = chance(0.2) ? 'folder' : 'root';
    const via: IgnoreEditVia = scope === 'root' && chance(0.3) ? 'cli' : chance(0.5) ? 'file' : 'rename';
    // In two of five, a pattern that holds back a change waiting to be sent, when one does (`target` picks it).
    const target = chance(0.4) ? random() : null;
    return { do: 'ignore-edit', scope, folder: random(), pattern: oneOf(IGNORE_POOL.filter((p) => scope === 'root' || !p.endsWith('/'))), via, target };
  };
  const withIgnored: Step[] = [];
  for (const step of steps) {
    if (step.do !== 'kill' && chance(IGNORE_SHARE)) withIgnored.push(ignoreStep());
    withIgnored.push(step);
  }
  return { ignoreFile, withIgnored };
}

const fraction = (x: number) => x.toFixed(2);
const filesText = (files: FileSpec[]) => files.length > 3 ? `${files.length} files (${files[0]!.name}…)` : files.map((f) => `${f.name}/${f.size}B`).join(', ') || 'no files';

/** One line per step, as printed with a failing seed. */
export function describeStep(step: Step): string {
  switch (step.do) {
    case 'kill': return `kill -9 after "${step.at}" + ${step.jitterMs} ms`;
    case 'wait': return `let it run ${step.ms} ms`;
    case 'idle': return `wait for idle (deadline ${step.deadlineMs} ms)`;
    case 'add': return `add ${filesText(step.files)} to folder@${fraction(step.folder)}`;
    case 'edit': return `edit file@${fraction(step.pick)} of folder@${fraction(step.folder)} (${step.size} B)`;
    case 'rename': return `rename file@${fraction(step.pick)} of folder@${fraction(step.folder)} to ${step.to}.*`;
    case 'move': return `move file@${fraction(step.pick)} of folder@${fraction(step.folder)} to folder@${fraction(step.toFolder)}`;
    case 'delete': return `delete file@${fraction(step.pick)} of folder@${fraction(step.folder)}`;
    case 'new-folder': return `new folder "${step.name}" with ${filesText(step.files)}`;
    case 'delete-folder': return `delete folder@${fraction(step.folder)}`;
    case 'remote-add': return `service: add ${step.file.name} to design@${fraction(step.design)}`;
    case 'remote-replace': return `service: replace file@${fraction(step.pick)} of design@${fraction(step.design)}`;
    case 'remote-rename': return `service: rename file@${fraction(step.pick)} of design@${fraction(step.design)} to ${step.to}.*`;
    case 'remote-delete': return `service: delete file@${fraction(step.pick)} of design@${fraction(step.design)}`;
    case 'remote-design': return `service: new design "${step.name}" with ${filesText(step.files)}`;
    case 'fault': return `fault ${JSON.stringify(step.rule)}`;
    case 'confirm': return `confirm ${step.pick === 'all' ? 'every' : `the one@${fraction(step.pick)}`} ${step.what === 'delete' ? 'deletion' : 'new design'} via ${step.via}`;
    case 'ignored-file': return `add or change a file of folder@${fraction(step.folder)} named ${step.byPattern ? 'for the ignore file' : 'for the built-in list'} (form@${fraction(step.form)}, after file@${fraction(step.pick)}, ${step.size} B)`;
    case 'edit-ignored': return `edit the never-sent file@${fraction(step.pick)} of folder@${fraction(step.folder)} (${step.size} B)`;
    case 'ignore-edit': return `${step.target === null ? '' : `add the pattern@${fraction(step.target)} that holds back a change waiting to be sent, else `}add or remove "${step.pattern}" in the .designsyncignore of ${step.scope === 'root' ? 'the sync folder' : `folder@${fraction(step.folder)}`} (${step.via})`;
    default: return step.do;
  }
}
