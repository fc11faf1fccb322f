import type { SlicersView, SlicerView } from '../../../shared';
import { EngineError } from '../runtime/engine-error';
import { findSlicers, slicersFor } from '../slicers/find-slicers';
import { openWithSlicer, type Spawner } from '../slicers/launch-slicer';
import { SYSTEM_DEFAULT_ID, SYSTEM_DEFAULT_NAME, systemSlicerEnvironment, type Slicer, type SlicerEnvironment } from '../slicers/slicer';
import { chosenSlicerId, rememberSlicer } from '../slicers/slicer-choice';
import { engineLog } from '../log/engine-log';
import { copyForOpening, modelFileOnDemand, modelFileSource, notAModelFile, type ModelFileDeps } from './model-files';
import { SLICER_FILE_TYPES } from '../../../shared/files/model-files';

/** Where slicers are looked for and how they are started: this computer's, unless a front end or a test gives its own. */
export interface SlicerHost {
  environment?: SlicerEnvironment;
  spawner?: Spawner;
}

const SYSTEM_VIEW: SlicerView = { id: SYSTEM_DEFAULT_ID, name: SYSTEM_DEFAULT_NAME, types: [...SLICER_FILE_TYPES] };
const viewOf = (slicer: Slicer): SlicerView => ({ id: slicer.id, name: slicer.name, types: [...slicer.types] });

/** The slicers found now (looked for at each ask: one installed a minute ago is offered). */
export function installedSlicers(host: SlicerHost = {}): Promise<Slicer[]> {
  return findSlicers(host.environment ?? systemSlicerEnvironment());
}

/** The slicers that open a document's type (all found, without one), the system's default app last, and the chosen one. */
export async function slicersView(deps: Pick<ModelFileDeps, 'cache' | 'settings'>, documentId: number | undefined, host: SlicerHost = {}): Promise<SlicersView> {
  const found = await installedSlicers(host);
  const remembered = deps.settings.read().openModelWith;
  if (documentId === undefined) {
    const slicers = [...found.map(viewOf), SYSTEM_VIEW];
    const last = remembered?.['*'];
    return { slicers, chosen: last && slicers.some((slicer) => slicer.id === last) ? last : slicers[0]!.id, type: null };
  }
  const source = modelFileSource(deps, documentId);
  if (!source) throw notAModelFile(deps, documentId);
  return { slicers: [...slicersFor(found, source.type).map(viewOf), SYSTEM_VIEW], chosen: chosenSlicerId(found, source.type, remembered), type: source.type };
}

export interface OpenedModelFile {
  /** Whether a slicer was started with it (false: `path` is for the host to open with the system's default app). */
  opened: boolean;
  path: string | null;
  slicer: SlicerView;
}

/**
 * "Open in your slicer": the model file fetched into the file cache when it holds none, copied under its own name,
 * and opened with the slicer asked for (else the one remembered for its type, else the first found); the choice is
 * remembered for its type. With the system's default app, the copy's path is answered for the host to open (Electron's
 * shell.openPath, `xdg-open`/`open`/Explorer from the CLI).
 */
export async function openModelFile(deps: ModelFileDeps, input: { documentId: number; slicer?: string | undefined }, signal?: AbortSignal, host: SlicerHost = {}): Promise<OpenedModelFile> {
  const source = modelFileSource(deps, input.documentId);
  if (!source) throw notAModelFile(deps, input.documentId);
  const { type } = source;
  const found = await installedSlicers(host);
  const remembered = deps.settings.read().openModelWith;
  const wanted = input.slicer ?? chosenSlicerId(found, type, remembered);
  const slicer = wanted === SYSTEM_DEFAULT_ID ? null : found.find((candidate) => candidate.id === wanted);
  if (slicer === undefined) throw EngineError.of('conflict', 'engine.refusal.slicer.gone');
  if (slicer && !slicer.types.includes(type as never)) throw EngineError.of('conflict', 'engine.refusal.slicer.wrongType', { app: slicer.name, type });
  const file = await modelFileOnDemand(deps, input.documentId, signal);
  const path = copyForOpening(deps, file);
  if (!slicer) {
    deps.settings.update({ openModelWith: rememberSlicer(remembered, type, SYSTEM_DEFAULT_ID) });
    return { opened: false, path, slicer: SYSTEM_VIEW };
  }
  try {
    await openWithSlicer(slicer, path, host.spawner);
  } catch (error) {
    engineLog.warn('slicers', `${slicer.name} (${slicer.where}) could not open ${path}`, error);
    throw EngineError.of('internal', 'engine.refusal.slicer.notStarted', { app: slicer.name });
  }
  deps.settings.update({ openModelWith: rememberSlicer(remembered, type, slicer.id) });
  return { opened: true, path: null, slicer: viewOf(slicer) };
}
