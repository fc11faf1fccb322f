/** One entry of the built-in list of names never sent: a tool's habit, with where it is documented. */
export interface BuiltInRule {
  /** Stable id, e.g. 'blender-backup'. */
  id: string;
  /** The tool, as people name it: 'Blender'. */
  tool: string;
  /** What the files are, plural, for grouping in the window: 'Blender backups' ("3 Blender backups not sent"). */
  label: string;
  /** gitignore-syntax patterns (as the npm package `ignore` v7 reads them), matched against paths relative to the sync folder, e.g. '*.blend[1-9]' */
  patterns: readonly string[];
  /** Where the tool's behaviour is documented: a URL (its manual, source file, or issue thread). */
  source: string;
  /** Names that must match, and names that must not (used by the test). */
  examples: { ignored: readonly string[]; kept: readonly string[] };
}

/*
 * Notes on the patterns:
 * - `ignore` matches case-insensitively by default, so '*.FCStd1' also catches 'x.fcstd1'.
 * - A pattern without a slash matches at any depth; a trailing slash matches directories only.
 * - A leading '#' starts a comment in gitignore syntax, hence '\#' where a name starts with '#'.
 * - Order matters only for which rule a file is reported under: the more specific rules come first.
 * - Entries whose source is the github/gitignore template say so: no page of the vendor's own was found for them.
 */
export const BUILT_IN_RULES: readonly BuiltInRule[] = [
  // ---- Blender ---------------------------------------------------------------------------------------------
  {
    // "Save Versions" (Preferences > Save & Load): each save renames x.blend to x.blend1, x.blend1 to x.blend2…
    // The preference goes up to 32; writefile.cc's do_history() caps the number at 99, so 1–99 are covered.
    // '.blend' itself, '.blend0', '.blend100' and '.blend1x' are kept.
    id: 'blender-backup',
    tool: 'Blender',
    label: 'Blender backups',
    patterns: ['*.blend[1-9]', '*.blend[1-9][0-9]'],
    source: 'https://docs.blender.org/manual/en/latest/editors/preferences/save_load.html',
    examples: {
      ignored: ['scene.blend1', 'scene.blend2', 'scene.blend32', 'models/robot.blend9', 'Scene.BLEND3'],
      kept: ['scene.blend', 'scene.blend0', 'scene.blend100', 'scene.blend1x', 'scene.blend.png'],
    },
  },
  {
    // BLO_write_file() writes to "<file>@" first and renames it over the .blend once the write succeeded.
    id: 'blender-save-temp',
    tool: 'Blender',
    label: 'Blender files being saved',
    patterns: ['*.blend@'],
    source: 'https://projects.blender.org/blender/blender/src/branch/main/source/blender/blenloader/intern/writefile.cc',
    examples: { ignored: ['scene.blend@', 'sub/scene.blend@'], kept: ['scene.blend', 'scene@home.blend'] },
  },

  // ---- FreeCAD ---------------------------------------------------------------------------------------------
  {
    // BackupPolicy: on save the previous file becomes x.FCStd1, x.FCStd2… (Preferences > General > Document,
    // "maximum number of backup files"), or, with "Use date and FCBak extension", x.<date>.FCBak.
    id: 'freecad-backup',
    tool: 'FreeCAD',
    label: 'FreeCAD backups',
    patterns: ['*.FCStd[1-9]', '*.FCStd[1-9][0-9]', '*.FCStd[1-9][0-9][0-9]', '*.FCBak'],
    source: 'https://github.com/FreeCAD/FreeCAD/blob/main/src/App/BackupPolicy.cpp',
    examples: {
      ignored: ['housing.FCStd1', 'housing.FCStd2', 'housing.FCStd12', 'housing.fcstd3', 'housing.20240101-120000.FCBak', 'housing.20240101-1200001.FCBak'],
      kept: ['housing.FCStd', 'housing.FCStd.png', 'housing.step'],
    },
  },
  {
    // Newer BackupPolicy.cpp puts those backups in a "freecad-backups" folder beside the document
    // (FreeCAD pull request #31211; found in a stored copy of BackupPolicy.cpp, release not checked).
    id: 'freecad-backup-folder',
    tool: 'FreeCAD',
    label: 'FreeCAD backup folders',
    patterns: ['freecad-backups/'],
    source: 'https://github.com/FreeCAD/FreeCAD/pull/31211',
    examples: {
      ignored: ['freecad-backups/', 'freecad-backups/housing.FCStd1', 'parts/freecad-backups/housing.20240101-120000.FCBak'],
      kept: ['freecad-backups.md', 'backups/housing.FCStd'],
    },
  },
  {
    // Document::saveToFile() writes "<file>.<uuid>" first and renames it over the .FCStd when done.
    id: 'freecad-save-temp',
    tool: 'FreeCAD',
    label: 'FreeCAD files being saved',
    patterns: ['*.FCStd.????????-????-????-????-????????????'],
    source: 'https://github.com/FreeCAD/FreeCAD/blob/main/src/App/Document.cpp',
    examples: {
      ignored: ['housing.FCStd.3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
      kept: ['housing.FCStd', 'housing.FCStd.zip', 'housing.FCStd.v2'],
    },
  },

  // ---- KiCad -----------------------------------------------------------------------------------------------
  {
    // Project backups: zip archives in "<project>-backups/" beside the .kicad_pro (SETTINGS_MANAGER, PROJECT_BACKUPS_DIR_SUFFIX).
    id: 'kicad-project-backups',
    tool: 'KiCad',
    label: 'KiCad project backups',
    patterns: ['*-backups/'],
    source: 'https://gitlab.com/kicad/code/kicad/-/blob/master/common/settings/settings_manager.cpp',
    examples: {
      ignored: ['board-backups/', 'board-backups/board-2024-01-01_120000.zip', 'pcb/board-backups/x.zip'],
      kept: ['board.kicad_pro', 'board-backups.md', 'backups/board.kicad_pcb'],
    },
  },
  {
    // Autosave: "_autosave-<name>" beside each file (FILEEXT::AutoSaveFilePrefix); the schematic editor also keeps
    // the list of autosaved sheets in "#auto_saved_files#" (eeschema/sch_edit_frame.h).
    id: 'kicad-autosave',
    tool: 'KiCad',
    label: 'KiCad autosaves',
    patterns: ['_autosave-*', '\\#auto_saved_files#'],
    source: 'https://gitlab.com/kicad/code/kicad/-/blob/master/common/wildcards_and_files_ext.cpp',
    examples: {
      ignored: ['_autosave-board.kicad_pcb', '_autosave-board.kicad_sch', '#auto_saved_files#'],
      kept: ['board.kicad_pcb', 'autosave-notes.txt'],
    },
  },
  {
    // Lock files while a file is open: "~<name>.<ext>.lck" (LOCKFILE, FILEEXT::LockFilePrefix / LockFileExtension).
    id: 'kicad-lock',
    tool: 'KiCad',
    label: 'KiCad lock files',
    patterns: ['~*.lck'],
    source: 'https://gitlab.com/kicad/code/kicad/-/blob/master/include/lockfile.h',
    examples: {
      ignored: ['~board.kicad_pcb.lck', '~board.kicad_sch.lck', '~board.kicad_pro.lck'],
      kept: ['board.kicad_pcb', 'board.lck.txt'],
    },
  },
  {
    // Footprint list cache written into the project folder when the board or footprint editor closes.
    id: 'kicad-fp-info-cache',
    tool: 'KiCad',
    label: 'KiCad footprint caches',
    patterns: ['fp-info-cache'],
    source: 'https://gitlab.com/kicad/code/kicad/-/blob/master/pcbnew/pcb_base_edit_frame.cpp',
    examples: { ignored: ['fp-info-cache', 'pcb/fp-info-cache'], kept: ['fp-lib-table', 'fp-info-cache.md'] },
  },
  {
    // Save goes to ".<name>.<ext>$" first, then is renamed over the file (pcbnew/files.cpp, eeschema, pl_editor).
    id: 'kicad-save-temp',
    tool: 'KiCad',
    label: 'KiCad files being saved',
    patterns: ['.*.kicad_*$'],
    source: 'https://gitlab.com/kicad/code/kicad/-/blob/master/pcbnew/files.cpp',
    examples: { ignored: ['.board.kicad_pcb$', '.board.kicad_sch$', '.title.kicad_wks$'], kept: ['board.kicad_pcb', 'board.kicad_sch'] },
  },
  {
    // KiCad 5 and earlier copied the previous file to "<name>.<ext>-bak" on save; removed in KiCad 6 (see thread).
    id: 'kicad-legacy-backup',
    tool: 'KiCad',
    label: 'KiCad backups',
    patterns: ['*.kicad_pcb-bak', '*.kicad_sch-bak', '*.sch-bak'],
    source: 'https://lists.launchpad.net/kicad-developers/msg44067.html',
    examples: { ignored: ['board.kicad_pcb-bak', 'board.kicad_sch-bak', 'board.sch-bak'], kept: ['board.kicad_pcb', 'board.sch'] },
  },
  {
    // KiCad 10's incremental backups: a Git repository in a hidden ".history" folder in the project (manual,
    // "Project backup"). Dot-folder: already skipped by the engine; listed to say why.
    id: 'kicad-local-history',
    tool: 'KiCad',
    label: 'KiCad local history',
    patterns: ['.history/'],
    source: 'https://docs.kicad.org/master/en/kicad/kicad.html',
    examples: { ignored: ['.history/', '.history/objects/ab/cdef'], kept: ['history.md', 'board.kicad_pcb'] },
  },

  // ---- AutoCAD ---------------------------------------------------------------------------------------------
  {
    // ISAVEBAK (on by default): each save keeps the previous drawing as <name>.bak in the drawing's folder.
    // Other tools use .bak too (KiCad 5 schematics); nobody publishes a .bak on purpose.
    id: 'autocad-backup',
    tool: 'AutoCAD',
    label: 'backup files',
    patterns: ['*.bak'],
    source: 'https://help.autodesk.com/cloudhelp/2022/ENU/AutoCAD-Core/files/GUID-25AF36C1-CA4A-4C1C-8D93-1C4F436C6C25.htm',
    examples: { ignored: ['plan.bak', 'floor/plan.BAK'], kept: ['plan.dwg', 'plan.dxf', 'bakery.png'] },
  },
  {
    // <name>.dwl and <name>.dwl2 beside an open drawing (for WHOHAS); left behind when AutoCAD crashes.
    id: 'autocad-lock',
    tool: 'AutoCAD',
    label: 'AutoCAD lock files',
    patterns: ['*.dwl', '*.dwl2'],
    source: 'https://help.autodesk.com/view/ACADWEB/ENU/?caas=caas%2Fsfdcarticles%2Fsfdcarticles%2FFile-locking-no-longer-controlled-by-software.html',
    examples: { ignored: ['plan.dwl', 'plan.dwl2'], kept: ['plan.dwg'] },
  },
  {
    // Automatic save: <name>_a_b_nnnn.sv$ in SAVEFILEPATH (the temp folder unless someone points it at the project).
    id: 'autocad-autosave',
    tool: 'AutoCAD',
    label: 'AutoCAD autosaves',
    patterns: ['*.sv$'],
    source: 'https://help.autodesk.com/cloudhelp/2016/ENU/AutoCAD-ActiveX/files/GUID-165DB51C-B8DB-4771-BF10-354E05083FC5.htm',
    examples: { ignored: ['plan_1_1_1234.sv$', 'auto.sv$'], kept: ['plan.dwg', 'plan.svg'] },
  },
  {
    // Temporary files, extension "ac$" by default (TempFileExtension), normally in the temp folder (TempFilePath).
    // Source page: the English text of Autodesk's ActiveX reference, served under its CHS path.
    id: 'autocad-temp',
    tool: 'AutoCAD',
    label: 'AutoCAD temporary files',
    patterns: ['*.ac$'],
    source: 'https://help.autodesk.com/cloudhelp/2016/CHS/AutoCAD-ActiveX/files/GUID-1D7AA573-0C0A-494E-873F-DC93BFDEE757.htm',
    examples: { ignored: ['atmp1234.ac$'], kept: ['plan.dwg', 'readme.ac'] },
  },

  // ---- SketchUp --------------------------------------------------------------------------------------------
  {
    // "Create backup" (on by default): the previous save is kept beside the model, as name.skb on Windows and
    // "name~.skp" on macOS (SketchUp team post). The "~name.skp" form some sites describe was not confirmed.
    id: 'sketchup-backup',
    tool: 'SketchUp',
    label: 'SketchUp backups',
    patterns: ['*.skb', '*~.skp'],
    source: 'https://forums.sketchup.com/t/sketchup-pro-2019-lets-talk-about-saving/88957',
    examples: { ignored: ['model.skb', 'model~.skp'], kept: ['model.skp', 'model-2.skp'] },
  },

  // ---- Rhino -----------------------------------------------------------------------------------------------
  {
    // "Create backup (*.*BAK) files when saving or exporting": the overwritten file is renamed to .3dmbak
    // (or .<ext>bak for exports, e.g. part.stlbak).
    id: 'rhino-backup',
    tool: 'Rhino',
    label: 'Rhino backups',
    patterns: ['*.3dmbak', '*.*bak'],
    source: 'https://docs.mcneel.com/rhino/8/help/en-us/options/files.htm',
    examples: { ignored: ['shape.3dmbak', 'part.stlbak', 'part.stpbak'], kept: ['shape.3dm', 'part.stl', 'kebab.png'] },
  },
  {
    // File locking: "<name>.3dm.rhl" while the model is open ("<name>.3dmrhl" with RemoveDotFromRhlFiles).
    id: 'rhino-lock',
    tool: 'Rhino',
    label: 'Rhino lock files',
    patterns: ['*.rhl', '*.3dmrhl'],
    source: 'https://docs.mcneel.com/rhino/8/help/en-us/options/files.htm',
    examples: { ignored: ['shape.3dm.rhl', 'shape.3dmrhl'], kept: ['shape.3dm'] },
  },

  // ---- Owner/lock files "~$name" -------------------------------------------------------------------------
  {
    // SOLIDWORKS keeps "~$<name>.SLDPRT" (etc.) while a document is open. Source: a user post on Dassault's
    // SOLIDWORKS forum; no SOLIDWORKS help page was found.
    id: 'solidworks-owner-file',
    tool: 'SOLIDWORKS',
    label: 'SOLIDWORKS lock files',
    patterns: ['~$*.sldprt', '~$*.sldasm', '~$*.slddrw'],
    source: 'https://3dswym.3dexperience.3ds.com/question/solidworks-user-forum/another-question_94CdRTjDR4GmuW_lq2rQmQ',
    examples: { ignored: ['~$bracket.SLDPRT', '~$frame.SLDASM', '~$frame.SLDDRW'], kept: ['bracket.SLDPRT', 'frame.SLDASM'] },
  },
  {
    // Word/Excel/PowerPoint "owner file": "~$" + the document's name, beside an open document.
    // Source: Microsoft's article as linked from other projects' docs; the page itself was not read here.
    id: 'office-owner-file',
    tool: 'Microsoft Office',
    label: 'Office lock files',
    patterns: ['~$*'],
    source: 'https://support.microsoft.com/en-us/topic/description-of-how-word-creates-temporary-files-66b112fb-d2c0-8f40-a0be-70a367cc4c85',
    examples: { ignored: ['~$notes.docx', '~$parts-list.xlsx', 'docs/~$deck.pptx'], kept: ['notes.docx', 'parts-list.xlsx', '~notes.txt'] },
  },
  {
    // ".~lock.<name>#" beside an open document (LockFileCommon); Calc shared documents also get ".~sharing.<name>#".
    // Dot-files: already skipped by the engine; listed to say why.
    id: 'libreoffice-lock',
    tool: 'LibreOffice',
    label: 'LibreOffice lock files',
    patterns: ['.~lock.*#', '.~sharing.*#'],
    source: 'https://github.com/LibreOffice/core/blob/master/svl/source/misc/lockfilecommon.cxx',
    examples: { ignored: ['.~lock.notes.odt#', '.~lock.parts.ods#', '.~sharing.parts.ods#'], kept: ['notes.odt', 'parts.ods'] },
  },

  // ---- Slicers ---------------------------------------------------------------------------------------------
  {
    // Bambu Studio writes a project to "<name>.3mf.tmp" and renames it over the .3mf (_BBS_3MF_Exporter::save_model_to_file).
    // OrcaSlicer shares this exporter but was not checked.
    id: 'bambu-studio-save-temp',
    tool: 'Bambu Studio',
    label: 'Bambu Studio projects being saved',
    patterns: ['*.3mf.tmp'],
    source: 'https://github.com/bambulab/BambuStudio/blob/master/src/libslic3r/Format/bbs_3mf.cpp',
    examples: { ignored: ['print.3mf.tmp'], kept: ['print.3mf', 'print.gcode.3mf'] },
  },
  {
    // PrusaSlicer: copy_file() writes exports (G-code…) to "<dest>.tmp" and renames; G-code is generated into
    // "<path>.tmp" (GCode.cpp); on Windows rename_file() moves an existing destination aside as "<dest>.tmp0".."tmp199".
    // The 3MF project is written in place (3mf.cpp), so no 3MF temp file. "*.tmp" also covers other tools' temporaries.
    id: 'prusaslicer-export-temp',
    tool: 'PrusaSlicer',
    label: 'temporary files',
    patterns: ['*.tmp', '*.tmp[0-9]', '*.tmp[0-9][0-9]', '*.tmp[0-9][0-9][0-9]'],
    source: 'https://github.com/prusa3d/PrusaSlicer/blob/master/src/libslic3r/utils.cpp',
    examples: { ignored: ['print.gcode.tmp', 'print.bgcode.tmp', 'print.gcode.tmp0', 'print.gcode.tmp199'], kept: ['print.gcode', 'print.bgcode', 'template.txt'] },
  },
  {
    // Slicing G-code, PrusaSlicer copies "<name>.gcode.tmp" to "<name>.gcode.tmp.postprocess" for its post-processing
    // scripts, then renames that back over "<name>.gcode.tmp" (seen in PrusaSlicer 2.5.0's own save:
    // test/fixtures/tool-saves/prusa-slicer-export.strace.txt).
    id: 'prusaslicer-postprocess-temp',
    tool: 'PrusaSlicer',
    label: 'PrusaSlicer temporary G-code',
    patterns: ['*.tmp.postprocess'],
    source: 'https://github.com/prusa3d/PrusaSlicer/blob/master/src/libslic3r/GCode/PostProcessor.cpp',
    examples: { ignored: ['print.gcode.tmp.postprocess'], kept: ['print.gcode', 'postprocess.py'] },
  },

  // ---- Editors and patch tools ----------------------------------------------------------------------------
  {
    // Swap files: ".<name>.swp" on Unix ("<name_ext>.swp" on Windows), then .swo, .swn… when one exists;
    // ".swx"/".swpx" are Vim's probe files (memline.c). Dot-files on Unix are already skipped by the engine.
    id: 'vim-swap',
    tool: 'Vim',
    label: 'Vim swap files',
    patterns: ['*.sw[m-p]', '*.swx', '*.swpx'],
    source: 'https://github.com/vim/vim/blob/master/runtime/doc/recover.txt',
    examples: { ignored: ['.part.scad.swp', '.part.scad.swo', '.part.scad.swn', 'part_scad.swp', '.part.scad.swx'], kept: ['part.scad', 'movie.swf', 'notes.txt'] },
  },
  {
    // Backups "<name>~" and numbered "<name>.~1~". Vim's backup and writebackup files also end in "~" ('backupext').
    id: 'tilde-backup',
    tool: 'Emacs',
    label: 'editor backups',
    patterns: ['*~'],
    source: 'https://www.gnu.org/software/emacs/manual/html_node/emacs/Backup-Names.html',
    examples: { ignored: ['part.scad~', 'part.scad.~1~', 'notes.txt~'], kept: ['part.scad', '~$notes.docx.txt', 'a~b.txt'] },
  },
  {
    // Auto-save files "#<name>#" beside the visited file.
    id: 'emacs-autosave',
    tool: 'Emacs',
    label: 'Emacs autosaves',
    patterns: ['\\#*#'],
    source: 'https://www.gnu.org/software/emacs/manual/html_node/emacs/Auto-Save-Files.html',
    examples: { ignored: ['#part.scad#', 'docs/#notes.txt#'], kept: ['part.scad', 'notes#1.txt', 'issue#12.md'] },
  },
  {
    // Lock files: a symbolic link ".#<name>" beside a modified file. Dot-files: already skipped by the engine.
    id: 'emacs-lock',
    tool: 'Emacs',
    label: 'Emacs lock files',
    patterns: ['.#*'],
    source: 'https://www.gnu.org/software/emacs/manual/html_node/elisp/File-Locks.html',
    examples: { ignored: ['.#part.scad'], kept: ['part.scad', '#hash.md'] },
  },
  {
    // patch keeps the original as "<name>.orig" (git mergetool's backups use the same name, mergetool.keepBackup).
    id: 'patch-backup',
    tool: 'patch',
    label: 'patch and merge backups',
    patterns: ['*.orig'],
    source: 'https://www.gnu.org/software/diffutils/manual/html_node/Backup-Names.html',
    examples: { ignored: ['part.scad.orig', 'README.md.orig'], kept: ['part.scad', 'original.stl'] },
  },
  {
    // Hunks patch could not apply go to "<name>.rej".
    id: 'patch-reject',
    tool: 'patch',
    label: 'patch rejects',
    patterns: ['*.rej'],
    source: 'https://www.gnu.org/software/diffutils/manual/html_node/Reject-Names.html',
    examples: { ignored: ['part.scad.rej'], kept: ['part.scad', 'reject.stl'] },
  },

  // ---- Operating systems -----------------------------------------------------------------------------------
  {
    // macOS "._<name>" AppleDouble files carry extended attributes on volumes without native support (dot_clean(1)).
    // Dot-files: already skipped by the engine.
    id: 'macos-appledouble',
    tool: 'macOS',
    label: 'macOS resource files',
    patterns: ['._*'],
    source: 'https://developer.apple.com/library/mac/documentation/Darwin/Reference/ManPages/man1/dot_clean.1.html',
    examples: { ignored: ['._part.stl', 'renders/._photo.jpg'], kept: ['part.stl', '_part.stl'] },
  },
  {
    // Finder's per-folder view settings. No Apple page found: source is the github/gitignore template.
    id: 'macos-ds-store',
    tool: 'macOS Finder',
    label: 'Finder folder settings',
    patterns: ['.DS_Store'],
    source: 'https://github.com/github/gitignore/blob/main/Global/macOS.gitignore',
    examples: { ignored: ['.DS_Store', 'renders/.DS_Store'], kept: ['DS_Store.md'] },
  },
  {
    // "Icon\r": a folder's custom icon. No Apple page found: source is the github/gitignore template ("Icon[\r]").
    id: 'macos-folder-icon',
    tool: 'macOS Finder',
    label: 'Finder folder icons',
    patterns: ['Icon[\r]'],
    source: 'https://github.com/github/gitignore/blob/main/Global/macOS.gitignore',
    examples: { ignored: ['Icon\r', 'renders/Icon\r'], kept: ['Icon', 'Icon.png', 'icons/logo.svg'] },
  },
  {
    // Volume-root folders: Spotlight index, trash, file-system event log, temporary items. No Apple page found:
    // source is the github/gitignore template. Dot-folders: already skipped by the engine.
    id: 'macos-volume-metadata',
    tool: 'macOS',
    label: 'macOS volume metadata',
    patterns: ['.Spotlight-V100/', '.Trashes/', '.fseventsd/', '.TemporaryItems/'],
    source: 'https://github.com/github/gitignore/blob/main/Global/macOS.gitignore',
    examples: { ignored: ['.Spotlight-V100/', '.Trashes/', '.fseventsd/', '.TemporaryItems/'], kept: ['Trashes.txt', 'spotlight.stl'] },
  },
  {
    // Windows XP-era thumbnail cache, one per folder (Windows Vista+ use a central cache, but still write Thumbs.db
    // on network folders). "ehthumbs.db" (Media Center) is not on the cited page: taken from the github/gitignore template.
    id: 'windows-thumbs-db',
    tool: 'Windows Explorer',
    label: 'Windows thumbnail caches',
    patterns: ['Thumbs.db', 'ehthumbs.db', 'ehthumbs_vista.db'],
    source: 'https://learn.microsoft.com/en-us/windows/win32/api/thumbcache/nn-thumbcache-ithumbnailcache',
    examples: { ignored: ['Thumbs.db', 'renders/thumbs.db', 'ehthumbs.db', 'ehthumbs_vista.db'], kept: ['thumbs.png', 'Thumbs.db.md'] },
  },
  {
    // Per-folder view/icon settings Explorer writes (hidden + system).
    id: 'windows-desktop-ini',
    tool: 'Windows Explorer',
    label: 'Windows folder settings',
    patterns: ['desktop.ini'],
    source: 'https://learn.microsoft.com/en-us/windows/win32/shell/how-to-customize-folders-with-desktop-ini',
    examples: { ignored: ['desktop.ini', 'Desktop.ini', 'renders/desktop.ini'], kept: ['desktop.png', 'desktop.ini.txt'] },
  },
  {
    // Recycle Bin folder at a drive's root. No Microsoft page found: source is the github/gitignore template.
    id: 'windows-recycle-bin',
    tool: 'Windows',
    label: 'Recycle Bin folders',
    patterns: ['$RECYCLE.BIN/'],
    source: 'https://github.com/github/gitignore/blob/main/Global/Windows.gitignore',
    examples: { ignored: ['$RECYCLE.BIN/', '$Recycle.Bin/S-1-5-21/desktop.ini'], kept: ['recycle.stl', 'RECYCLE.BIN.txt'] },
  },
  {
    // KDE (Dolphin/KIO) keeps a folder's icon and view settings in ".directory". Dot-file: already skipped.
    id: 'kde-directory',
    tool: 'KDE Dolphin',
    label: 'KDE folder settings',
    patterns: ['.directory'],
    source: 'https://invent.kde.org/frameworks/kio/-/blob/master/src/core/kfileitem.cpp',
    examples: { ignored: ['.directory', 'renders/.directory'], kept: ['directory.md'] },
  },
  {
    // libfuse renames a file deleted while still open to ".fuse_hidden<id><counter>". Dot-file: already skipped.
    id: 'fuse-hidden',
    tool: 'FUSE',
    label: 'FUSE leftovers',
    patterns: ['.fuse_hidden*'],
    source: 'https://github.com/libfuse/libfuse/blob/master/lib/fuse.c',
    examples: { ignored: ['.fuse_hidden0000000a00000001'], kept: ['fuse_hidden.txt'] },
  },
  {
    // The Linux NFS client "silly-renames" a file deleted while open to ".nfs<fileid><counter>" (hex). Dot-file.
    id: 'nfs-silly-rename',
    tool: 'Linux NFS',
    label: 'NFS leftovers',
    patterns: ['.nfs[0-9a-f]*'],
    source: 'https://github.com/torvalds/linux/blob/master/fs/nfs/unlink.c',
    examples: { ignored: ['.nfs000000000012345600000001'], kept: ['nfs-notes.txt'] },
  },

  // ---- Partial downloads -----------------------------------------------------------------------------------
  {
    // Firefox writes a download in progress to "<name>.part" (nsExternalHelperAppService).
    id: 'firefox-partial-download',
    tool: 'Firefox',
    label: 'unfinished downloads',
    patterns: ['*.part'],
    source: 'https://github.com/mozilla/gecko-dev/blob/master/uriloader/exthandler/nsExternalHelperAppService.cpp',
    examples: { ignored: ['part.stl.part', 'model.3mf.part'], kept: ['part.stl', 'part.step', 'part.partial.stl'] },
  },
  {
    // Chrome (and Chromium-based browsers) write "<name>.crdownload" until the download completes.
    id: 'chrome-partial-download',
    tool: 'Chrome',
    label: 'unfinished downloads',
    patterns: ['*.crdownload'],
    source: 'https://github.com/chromium/chromium/blob/main/chrome/browser/download/download_target_determiner.cc',
    examples: { ignored: ['part.stl.crdownload', 'Unconfirmed 123456.crdownload'], kept: ['part.stl'] },
  },
];
