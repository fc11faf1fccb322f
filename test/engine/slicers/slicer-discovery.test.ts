import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandExec, parseDesktopEntry, parseExec, unescapeValue } from '../../../electron/engine/slicers/desktop-entry';
import { findSlicers } from '../../../electron/engine/slicers/find-slicers';
import { launchCommand, openWithSlicer, systemOpenCommand } from '../../../electron/engine/slicers/launch-slicer';
import { systemSlicerEnvironment, type Slicer } from '../../../electron/engine/slicers/slicer';
import { chosenSlicerId, rememberSlicer, slicerNamed } from '../../../electron/engine/slicers/slicer-choice';
import { tempDir } from '../cache/cache-fixtures';
import { until } from '../../../harness/until';
import { installEntry, linuxEnvironment, recordingProgram, SLICER_FIXTURES, stubProgram, writeEntry } from './slicer-fixtures';

/** Exec as a desktop file holds it (string escapes included), made into the command that opens `file`. */
const commandOf = (exec: string, file = '/home/me/Gear 2.3mf') => expandExec(parseExec(unescapeValue(exec)), file, { icon: 'gear', name: 'Gear app', location: '/apps/gear.desktop' });

describe('a desktop entry\'s Exec, expanded as the Desktop Entry Specification says', () => {
  it('puts the file where %f, %F, %u or %U stands, as one argument whatever it holds, with no shell', () => {
    expect(commandOf('prusa-slicer %F')).toEqual(['prusa-slicer', '/home/me/Gear 2.3mf']);
    expect(commandOf('app --open=%f --quiet')).toEqual(['app', '--open=/home/me/Gear 2.3mf', '--quiet']);
    expect(commandOf('AppRun %U')).toEqual(['AppRun', '/home/me/Gear 2.3mf']);
    expect(commandOf('flatpak run --file-forwarding com.bambulab.BambuStudio @@u %U @@')).toEqual(['flatpak', 'run', '--file-forwarding', 'com.bambulab.BambuStudio', '@@u', '/home/me/Gear 2.3mf', '@@']);
    expect(commandOf('app %F', '/tmp/$(rm -rf ~); `x` "q".stl')).toEqual(['app', '/tmp/$(rm -rf ~); `x` "q".stl']);
  });

  it('reads quoted arguments and their escapes, and the file\'s own escapes first', () => {
    expect(commandOf('"/opt/My Slicer/bin/slicer" --title "a \\\\"b\\\\" \\\\$HOME \\\\\\\\ `" %f')).toEqual(['/opt/My Slicer/bin/slicer', '--title', 'a "b" $HOME \\ `', '/home/me/Gear 2.3mf']);
    expect(commandOf('app\\s--flag %f')).toEqual(['app', '--flag', '/home/me/Gear 2.3mf']);
    expect(commandOf('app "" 100%% %f')).toEqual(['app', '', '100%', '/home/me/Gear 2.3mf']);
  });

  it('expands %i, %c and %k from the entry, and drops the deprecated codes', () => {
    expect(commandOf('app %i %c %k %d %D %n %N %v %m %F')).toEqual(['app', '--icon', 'gear', 'Gear app', '/apps/gear.desktop', '/home/me/Gear 2.3mf']);
    expect(expandExec(parseExec('app %i %f'), '/f.stl', {})).toEqual(['app', '/f.stl']);
  });

  it.each([
    ['app %f "unterminated', /a quote is not closed/],
    ['app "half"quoted %f', /quoted whole/],
    ['app "\\q" %f', /not an escape/],
    ['app "%f"', /field code inside a quoted argument/],
    ['app %z %f', /%z is not a field code/],
    ['app x%Fy', /must stand alone/],
    ['app %f %F', /more than one file field code/],
    ['app --no-file', /takes no file/],
    ['%f', /program is a field code/],
    ['app $HOME %f', /must be in a quoted argument/],
    ['app > /tmp/out %f', /must be in a quoted argument/],
    ['', /names no program/],
  ])('refuses %j, naming why', (exec, why) => {
    expect(() => parseExec(exec)).toThrow(why);
  });

  it('reads the [Desktop Entry] group strictly: localized keys kept apart, actions read over, broken files refused', () => {
    const keys = parseDesktopEntry(readFileSync(join(SLICER_FIXTURES, 'linux', 'cura.desktop'), 'utf8'));
    expect(keys.get('Name')).toBe('Cura');
    expect(keys.get('Name[de]')).toBe('Cura');
    expect(parseDesktopEntry('# c\n[Desktop Entry]\nName=A\nExec=a %f\n\n[Desktop Action X]\nExec=b %f\n').get('Exec')).toBe('a %f');
    expect(() => parseDesktopEntry('[Desktop Entry]\nName=A\nName=B\n')).toThrow(/given twice/);
    expect(() => parseDesktopEntry('[Other]\nName=A\n[Desktop Entry]\n')).toThrow(/first group/);
    expect(() => parseDesktopEntry('Name=A\n')).toThrow(/neither a group|before any group/);
    expect(() => parseDesktopEntry('[Desktop Entry]\nthis is not a key\n')).toThrow(/line 2/);
  });
});

describe('slicers found on Linux from desktop entries', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir('slicers-linux');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the known slicers and what each opens, known ones first, from XDG_DATA_HOME, XDG_DATA_DIRS and Flatpak\'s exports', async () => {
    const logs: string[] = [];
    const environment = linuxEnvironment(root, logs);
    const { bin, dataHome, dataDir, flatpak } = environment;
    for (const program of ['prusa-slicer', 'orca-slicer', 'superslicer', 'cura', 'flatpak']) stubProgram(bin, program);
    installEntry(join(dataDir, 'applications'), 'PrusaSlicer.desktop', bin);
    installEntry(join(dataDir, 'applications'), 'PrusaGcodeviewer.desktop', bin);
    installEntry(join(dataDir, 'applications'), 'cura.desktop', bin);
    installEntry(join(dataHome, 'applications'), 'OrcaSlicer.desktop', bin);
    installEntry(join(dataHome, 'applications/kde'), 'SuperSlicer.desktop', bin);
    installEntry(join(flatpak, 'applications'), 'com.bambulab.BambuStudio.desktop', bin);
    writeEntry(join(dataDir, 'applications'), 'viewer.desktop', '[Desktop Entry]\nType=Application\nName=Mesh Viewer\nExec=viewer %f\nMimeType=model/x.stl-binary;model/obj;\n');
    stubProgram(bin, 'viewer');
    writeEntry(join(dataDir, 'applications'), 'editor.desktop', '[Desktop Entry]\nType=Application\nName=Editor\nExec=editor %F\nMimeType=text/plain;\n');

    const slicers = await findSlicers(environment);
    expect(slicers.map((slicer) => [slicer.name, slicer.id, [...slicer.types].sort()])).toEqual([
      ['PrusaSlicer', 'desktop:PrusaSlicer.desktop', ['3mf', 'amf', 'gcode', 'obj', 'step', 'stl', 'stp']],
      ['OrcaSlicer', 'desktop:OrcaSlicer.desktop', ['3mf', 'amf', 'obj', 'step', 'stl', 'stp']],
      ['BambuStudio (Flatpak)', 'desktop:com.bambulab.BambuStudio.desktop', ['3mf', 'amf', 'obj', 'step', 'stl', 'stp']],
      ['Cura', 'desktop:cura.desktop', ['3mf', 'amf', 'gcode', 'obj', 'ply', 'stl']],
      ['SuperSlicer', 'desktop:kde-SuperSlicer.desktop', ['3mf', 'amf', 'gcode', 'obj', 'step', 'stl', 'stp']],
      ['Mesh Viewer', 'desktop:viewer.desktop', ['obj', 'stl']],
      ['Prusa GCode viewer', 'desktop:PrusaGcodeviewer.desktop', ['gcode']],
    ]);
    expect(logs).toEqual([]);
    const viewer = slicers.find((slicer) => slicer.name === 'Prusa GCode viewer')!;
    expect(launchCommand(viewer, '/p/cube.gcode')).toMatchObject({ command: join(bin, 'prusa-slicer'), args: ['--gcodeviewer', '/p/cube.gcode'] });
  });

  it('offers a Flatpak entry\'s G-code viewer action for G-code, started through flatpak with the file forwarded', async () => {
    const logs: string[] = [];
    const environment = linuxEnvironment(root, logs);
    stubProgram(environment.bin, 'flatpak');
    installEntry(join(environment.flatpak, 'applications'), 'com.prusa3d.PrusaSlicer.desktop', environment.bin);
    const slicers = await findSlicers(environment);
    expect(slicers.map((slicer) => [slicer.id, slicer.name, [...slicer.types].sort()])).toEqual([
      ['desktop:com.prusa3d.PrusaSlicer.desktop', 'PrusaSlicer (Flatpak)', ['3mf', 'amf', 'gcode', 'obj', 'step', 'stl', 'stp']],
      ['desktop:com.prusa3d.PrusaSlicer.desktop#GCodeViewer', 'PrusaSlicer G-Code Viewer (Flatpak)', ['gcode']],
    ]);
    expect(launchCommand(slicers[1]!, '/home/me/cube.gcode').args).toEqual(['run', '--branch=stable', '--arch=x86_64', '--command=entrypoint', '--file-forwarding', 'com.prusa3d.PrusaSlicer', '--gcodeviewer', '@@', '/home/me/cube.gcode', '@@']);
    expect(logs).toEqual([]);
  });

  it('skips, with the reason in the log, entries that are broken, not installed or unable to take a file; Hidden hides an entry of the same id', async () => {
    const logs: string[] = [];
    const environment = linuxEnvironment(root, logs);
    const { bin, dataHome, dataDir } = environment;
    installEntry(join(dataDir, 'applications'), 'cura.desktop', '/nowhere');
    installEntry(join(dataDir, 'applications'), 'OrcaSlicer.desktop', bin);
    writeEntry(join(dataDir, 'applications'), 'broken.desktop', '[Desktop Entry]\nType=Application\nName=Broken\nExec=slicer %f "--x\nMimeType=model/stl;\n');
    writeEntry(join(dataDir, 'applications'), 'nofile.desktop', '[Desktop Entry]\nType=Application\nName=No File\nExec=slicer\nMimeType=model/stl;\n');
    writeEntry(join(dataDir, 'applications'), 'shell.desktop', '[Desktop Entry]\nType=Application\nName=Shell\nExec=slicer; rm %f\nMimeType=model/stl;\n');
    stubProgram(bin, 'slicer');
    writeEntry(join(dataDir, 'applications'), 'PrusaSlicer.desktop', readFileSync(join(SLICER_FIXTURES, 'linux', 'PrusaSlicer.desktop'), 'utf8'));
    stubProgram(bin, 'prusa-slicer');
    // The person removed PrusaSlicer from their menu: Hidden in their own folder hides the system's entry.
    writeEntry(join(dataHome, 'applications'), 'PrusaSlicer.desktop', '[Desktop Entry]\nHidden=true\n');
    writeEntry(join(dataDir, 'applications'), 'hiddenmenu.desktop', '[Desktop Entry]\nType=Application\nName=Helper\nNoDisplay=true\nExec=slicer %f\nMimeType=model/stl;\n');

    const slicers = await findSlicers(environment);
    expect(slicers.map((slicer) => slicer.name)).toEqual([]);
    expect(logs.sort()).toEqual([
      expect.stringMatching(/OrcaSlicer\.desktop is not used: its program orca-slicer is not installed/),
      expect.stringMatching(/broken\.desktop is not used: Exec=.*a quote is not closed/),
      expect.stringMatching(/cura\.desktop is not used: its TryExec \/nowhere\/cura is not installed/),
      expect.stringMatching(/nofile\.desktop is not used: .*takes no file/),
      expect.stringMatching(/shell\.desktop is not used: .*";" must be in a quoted argument/),
    ]);
  });

  it('starts the slicer of a desktop entry with the file: a real program records the arguments it was given', async () => {
    const environment = linuxEnvironment(root);
    const record = join(root, 'arguments.txt');
    const program = recordingProgram(join(environment.bin, 'record-slicer'), record);
    writeEntry(join(environment.dataHome, 'applications'), 'recorder.desktop', '[Desktop Entry]\nType=Application\nName=PrusaSlicer\nExec=record-slicer --single-instance "--title=Gear" %F\nMimeType=model/3mf;\n');
    const [slicer] = await findSlicers(environment);
    expect(slicer).toMatchObject({ id: 'desktop:recorder.desktop', known: 'prusaslicer' });
    const file = join(root, 'files', 'Gear; $(id) "1".3mf');
    mkdirSync(join(root, 'files'));
    await openWithSlicer(slicer!, file);
    const recorded = await until('the slicer to record its arguments', () => {
      try {
        return readFileSync(record, 'utf8');
      } catch {
        return null;
      }
    });
    expect(recorded).toBe(`--single-instance\n--title=Gear\n${file}\n`);
    expect(launchCommand(slicer!, file).command).toBe(program);
  });

  it('says which program could not be started when it is gone by the time the file is opened', async () => {
    const environment = linuxEnvironment(root);
    stubProgram(environment.bin, 'broken-slicer');
    writeEntry(join(environment.dataHome, 'applications'), 'broken.desktop', '[Desktop Entry]\nType=Application\nName=OrcaSlicer\nExec=broken-slicer %F\nMimeType=model/3mf;\n');
    const [slicer] = await findSlicers(environment);
    rmSync(join(environment.bin, 'broken-slicer'));
    await expect(openWithSlicer(slicer!, join(root, 'Gear.3mf'))).rejects.toThrow(new RegExp(`^${join(environment.bin, 'broken-slicer')} could not be started: `));
  });
});

describe('slicers found on macOS and Windows', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir('slicers-other');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the known slicers\' app bundles in /Applications and ~/Applications, and opens one with open -a', async () => {
    const system = join(root, 'Applications');
    const mine = join(root, 'home/Applications');
    for (const bundle of [join(system, 'PrusaSlicer.app'), join(system, 'UltiMaker Cura.app'), join(mine, 'OrcaSlicer.app'), join(mine, 'BambuStudio.app')]) mkdirSync(join(bundle, 'Contents/MacOS'), { recursive: true });
    mkdirSync(join(system, 'SuperSlicer.app'));
    const environment = systemSlicerEnvironment({ platform: 'darwin', home: join(root, 'home'), applicationFolders: [system, mine], log: () => {} });
    const slicers = await findSlicers(environment);
    expect(slicers.map((slicer) => [slicer.name, slicer.where])).toEqual([
      ['PrusaSlicer', join(system, 'PrusaSlicer.app')],
      ['OrcaSlicer', join(mine, 'OrcaSlicer.app')],
      ['Bambu Studio', join(mine, 'BambuStudio.app')],
      ['UltiMaker Cura', join(system, 'UltiMaker Cura.app')],
    ]);
    expect(slicers[3]!.types).toContain('ply');
    expect(launchCommand(slicers[0]!, '/Users/me/Gear.3mf')).toMatchObject({ command: 'open', args: ['-a', join(system, 'PrusaSlicer.app'), '/Users/me/Gear.3mf'], waitForExit: true });
  });

  it('finds the known slicers in the registry (reg query of the Uninstall and App Paths keys, recorded), each program once', async () => {
    const uninstall = readFileSync(join(SLICER_FIXTURES, 'windows', 'reg-query-uninstall.txt'), 'utf8');
    const appPaths = readFileSync(join(SLICER_FIXTURES, 'windows', 'reg-query-app-paths.txt'), 'utf8');
    const asked: string[][] = [];
    const present = new Set([
      'C:\\Program Files\\Prusa3D\\PrusaSlicer\\prusa-slicer.exe', 'C:\\Program Files\\Prusa3D\\PrusaSlicer\\prusa-gcodeviewer.exe',
      'C:\\Program Files\\UltiMaker Cura 5.7.1\\UltiMaker-Cura.exe', 'C:\\Program Files\\OrcaSlicer\\orca-slicer.exe',
      'C:\\Program Files\\SuperSlicer\\superslicer.exe',
    ]);
    const logs: string[] = [];
    const environment = systemSlicerEnvironment({
      platform: 'win32',
      reg: async (args) => {
        asked.push([...args]);
        if (args[1] === 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall') return uninstall;
        if (args[1] === 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths') return appPaths;
        if (args[1]!.startsWith('HKCU')) throw new Error('ERROR: Access is denied.');
        return '';
      },
      exists: (path) => present.has(path),
      log: (message) => logs.push(message),
    });
    const slicers = await findSlicers(environment);
    expect(slicers.map((slicer) => [slicer.name, slicer.where])).toEqual([
      ['PrusaSlicer', 'C:\\Program Files\\Prusa3D\\PrusaSlicer\\prusa-slicer.exe'],
      ['OrcaSlicer', 'C:\\Program Files\\OrcaSlicer\\orca-slicer.exe'],
      ['UltiMaker Cura', 'C:\\Program Files\\UltiMaker Cura 5.7.1\\UltiMaker-Cura.exe'],
      ['SuperSlicer', 'C:\\Program Files\\SuperSlicer\\superslicer.exe'],
      ['PrusaSlicer G-code viewer', 'C:\\Program Files\\Prusa3D\\PrusaSlicer\\prusa-gcodeviewer.exe'],
    ]);
    expect(asked.every((args) => args[0] === 'query' && args[2] === '/s')).toBe(true);
    expect(logs).toEqual([
      expect.stringMatching(/^Bambu Studio is listed as installed .* but its program was not found$/),
      expect.stringMatching(/HKCU.*Uninstall cannot be read/),
      expect.stringMatching(/HKCU.*App Paths cannot be read/),
    ]);
    expect(launchCommand(slicers[0]!, 'C:\\Users\\me\\Gear.3mf')).toMatchObject({ command: 'C:\\Program Files\\Prusa3D\\PrusaSlicer\\prusa-slicer.exe', args: ['C:\\Users\\me\\Gear.3mf'] });
  });

  it('opens with the system\'s default app through xdg-open, open or Explorer, never a shell', () => {
    expect(systemOpenCommand('linux', '/a b.stl')).toEqual({ command: 'xdg-open', args: ['/a b.stl'], waitForExit: true });
    expect(systemOpenCommand('darwin', '/a b.stl')).toEqual({ command: 'open', args: ['/a b.stl'], waitForExit: true });
    expect(systemOpenCommand('win32', 'C:\\a & b.stl')).toEqual({ command: 'explorer.exe', args: ['C:\\a & b.stl'], waitForExit: false });
  });
});

describe('the slicer chosen for a file', () => {
  const slicer = (id: string, types: string[]): Slicer => ({ id, name: id, known: null, types: types as Slicer['types'], where: id, launch: { kind: 'program', path: id } });
  const found = [slicer('prusa', ['stl', '3mf', 'gcode']), slicer('cura', ['stl', 'ply']), slicer('viewer', ['gcode'])];

  it('is the one chosen for its type, else the last one chosen, else the first found that opens it, else the system\'s default app', () => {
    expect(chosenSlicerId(found, 'stl', undefined)).toBe('prusa');
    expect(chosenSlicerId(found, 'ply', undefined)).toBe('cura');
    expect(chosenSlicerId(found, 'obj', undefined)).toBe('system');
    let remembered = rememberSlicer(undefined, 'gcode', 'viewer');
    expect(chosenSlicerId(found, 'gcode', remembered)).toBe('viewer');
    // The G-code viewer opens no STL: the last choice does not apply.
    expect(chosenSlicerId(found, 'stl', remembered)).toBe('prusa');
    remembered = rememberSlicer(remembered, 'stl', 'cura');
    expect(chosenSlicerId(found, 'ply', remembered)).toBe('cura');
    expect(chosenSlicerId(found, 'gcode', remembered)).toBe('viewer');
    // A slicer no longer installed is passed over.
    expect(chosenSlicerId(found.slice(0, 1), 'stl', remembered)).toBe('prusa');
  });

  it('is found by its id or by its name as a person types it', () => {
    const named = [{ ...slicer('desktop:a.desktop', ['stl']), name: 'Bambu Studio', known: 'bambustudio' }, { ...slicer('desktop:b.desktop', ['stl']), name: 'PrusaSlicer', known: 'prusaslicer' }];
    expect(slicerNamed(named, 'bambu-studio')).toBe(named[0]);
    expect(slicerNamed(named, 'prusaslicer')).toBe(named[1]);
    expect(slicerNamed(named, 'desktop:b.desktop')).toBe(named[1]);
    expect(slicerNamed(named, 'System default')).toBe('system');
    expect(slicerNamed(named, 'cura')).toBeNull();
  });
});
