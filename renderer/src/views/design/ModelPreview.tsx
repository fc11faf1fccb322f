import { useEffect, useId, useRef, useState } from 'react';
import type { IntlShape } from '@formatjs/intl';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DocumentView } from '../../../../shared';
import type { ModelScene } from './model-scene';
import { formatProgress, ModelFetchError, type FetchProgress } from './model-fetch';
import { softwareRendered } from './model-gpu';
import { markModelStep } from './model-marks';
import { formatLayerHeight, formatModelSize } from './model-measure';
import { startModelReader } from './model-reader';
import { modelWords, type ModelWords } from './model-words';
import { useOpenedInPlace } from '../use-escape';

type State =
  | { kind: 'loading'; progress: FetchProgress | null; reading: boolean }
  | { kind: 'shown'; triangles: number; size: { width: number; depth: number; height: number }; layers: { z: number }[]; notes: ModelWords[] }
  | { kind: 'failed'; error: unknown };

/**
 * Why the file could not be shown, naming it, in the window's language: a reader's words, the host's answer, or a
 * loader's own message (as it gave it) only when it gave none of ours.
 */
function failure(intl: Pick<IntlShape, 'formatMessage'>, document: DocumentView, error: unknown): string {
  const file = document.name;
  if (error instanceof Error && 'words' in error && error.name === 'UnreadableModelError') {
    return intl.formatMessage({ id: 'design.model.cannotShow' }, { file, reason: modelWords(intl, error.words as ModelWords) });
  }
  const reason = error instanceof ModelFetchError
    ? (error.status === 404 ? intl.formatMessage({ id: 'design.model.error.fetchNotCached' }) : intl.formatMessage({ id: 'design.model.error.fetchFailed' }, { status: String(error.status) }))
    : error instanceof Error ? error.message : String(error);
  return intl.formatMessage({ id: 'design.model.cannotShowBecause' }, { file, reason });
}

/** The layer slider of a G-code file's toolpaths: layers 1 to N are drawn. Keyboard: arrows, Page Up/Down, Home, End. */
function LayerSlider({ layers, onChange }: { layers: { z: number }[]; onChange(layer: number): void }) {
  const intl = useIntl();
  const id = useId();
  const [shown, setShown] = useState(layers.length);
  const z = layers[shown - 1]?.z ?? 0;
  const words = intl.formatMessage({ id: 'design.model.layersShownValue' }, { shown, total: layers.length, height: formatLayerHeight(z, intl) });
  return (
    <div className="layer-slider">
      <label htmlFor={id}><FormattedMessage id="design.model.layersShown" /></label>
      <input id={id} type="range" min={1} max={layers.length} step={1} value={shown} aria-valuetext={words}
        onChange={(event) => {
          const layer = Number(event.currentTarget.value);
          setShown(layer);
          onChange(layer);
        }} />
      {/* Shown beside the slider; a screen reader hears it as the slider's value (aria-valuetext), not twice. */}
      <span className="layer-shown" data-testid="layer-shown" aria-hidden="true">{words}</span>
    </div>
  );
}

/** What the view says while a file loads: its bytes fetched of the total, then that it is read. */
function LoadingProgress({ name, progress, reading }: { name: string; progress: FetchProgress | null; reading: boolean }) {
  const intl = useIntl();
  const words = reading ? intl.formatMessage({ id: 'design.model.reading' }, { file: name })
    : progress ? intl.formatMessage({ id: 'design.model.fetchingProgress' }, { file: name, progress: formatProgress(intl, progress) })
      : intl.formatMessage({ id: 'design.model.fetching' }, { file: name });
  return (
    <div className="model-loading">
      {/* A bar while the bytes come (of a known total); without a value while the worker reads them. */}
      <progress aria-label={intl.formatMessage({ id: 'design.model.loadingLabel' }, { file: name })} max={progress?.total ?? undefined} value={!reading && progress?.total ? progress.received : undefined} />
      <span data-testid="model-progress">{words}</span>
    </div>
  );
}

/**
 * The interactive 3D view of one model, made on demand (three.js is loaded only then). Its bytes come from the host's
 * own address for the file (never a link to the service's file: rule 1), so a model seen once works offline. Beside
 * it: the model's size in millimetres, what the file holds that the view does not show, and for G-code a slider of
 * the layers shown. While it loads: the bytes fetched of the total, then "Reading…"; its button then cancels (the
 * fetch is aborted, the model worker stopped). A file that cannot be read says which and why, in the view; the page
 * goes on.
 * Opened, it takes the focus; Escape closes it, and the focus goes back to the button that opened it.
 */
export function ModelPreview({ document, onClose, onCached }: { document: DocumentView; onClose(): void; onCached(): void }) {
  const intl = useIntl();
  const canvas = useRef<HTMLCanvasElement>(null);
  const scene = useRef<ModelScene | null>(null);
  const [state, setState] = useState<State>({ kind: 'loading', progress: null, reading: false });
  const [drawn, setDrawn] = useState(false);
  const { focusRef, onKeyDown } = useOpenedInPlace<HTMLElement>(onClose);

  useEffect(() => {
    let cancelled = false;
    const reading = new AbortController();
    markModelStep('opened');
    // The model worker starts at once and fetches the file itself: its start and the loading of the type's reader go
    // on while the bytes come, the page's thread never handles them, and three.js is loaded here meanwhile.
    const reader = startModelReader(document.type.toLowerCase(), reading.signal);
    void (async () => {
      try {
        let shown = 0;
        let announced: (bytes: number | null) => void = () => {};
        const fileBytes = new Promise<number | null>((resolve) => {
          announced = resolve;
        });
        const read = reader.fetchAndRead(document.previewUrl!, {
          onProgress: (progress) => {
            announced(progress.total);
            // At most a few updates a second, and the last one.
            const now = performance.now();
            if (now - shown < 150 && progress.received !== progress.total) return;
            shown = now;
            if (!cancelled) setState({ kind: 'loading', progress, reading: false });
          },
          onFetched: () => {
            markModelStep('fetched');
            // Fetched once, the file is now kept for offline use: the file list says so (whether or not it can be shown).
            if (cancelled) return;
            if (!document.cached) onCached();
            setState((now) => ({ kind: 'loading', progress: now.kind === 'loading' ? now.progress : null, reading: true }));
          },
        });
        // Its failure is the view's, once the scene's module is here (showModel awaits it), not a stray rejection
        // before; the scene is then not kept waiting for the file's size.
        read.catch(() => announced(null));
        // Asked now, while the bytes come, not when the scene is made (it makes a WebGL context of its own).
        softwareRendered();
        // The scene is made once three.js is here and the file's size is known (its answer's first bytes).
        const [{ showModel }, size] = await Promise.all([import('./model-scene'), fileBytes]);
        if (cancelled || !canvas.current) {
          reader.stop();
          return;
        }
        const dark = matchMedia('(prefers-color-scheme: dark)').matches;
        const model = await showModel(canvas.current, document.type, read, dark, reading.signal, size);
        if (cancelled) {
          model.dispose();
          return;
        }
        scene.current = model;
        setState({ kind: 'shown', triangles: model.triangles, size: model.size, layers: model.layers, notes: model.notes });
        void model.drawn.then(() => {
          if (!cancelled) setDrawn(true);
        });
      } catch (error) {
        reader.stop();
        if (!cancelled) setState({ kind: 'failed', error });
      }
    })();
    return () => {
      cancelled = true;
      reading.abort();
      scene.current?.dispose();
      scene.current = null;
    };
    // Only a new document shows anew (a refreshed list gives the same one as a new object).
  }, [document.id]);

  // Drawn once the view has shown what it knows of the model (its size, what it holds): a large model's first
  // drawing takes seconds on a software renderer.
  useEffect(() => {
    if (state.kind === 'shown') scene.current?.show();
  }, [state.kind]);

  const file = document.name;
  const description = state.kind !== 'shown' ? null
    : state.layers.length > 0 ? intl.formatMessage({ id: 'design.model.describeToolpaths' }, { file, layers: state.layers.length })
      : intl.formatMessage({ id: 'design.model.describeMesh' }, { file, triangles: state.triangles });
  const status = state.kind === 'loading'
    ? intl.formatMessage({ id: state.reading ? 'design.model.reading' : 'design.model.loading' }, { file })
    : state.kind === 'failed' ? '' : description;
  return (
    <section ref={focusRef} tabIndex={-1} className="model-preview" aria-label={intl.formatMessage({ id: 'design.model.label' }, { file })} onKeyDown={onKeyDown}>
      {state.kind === 'failed' ? null : (
        <canvas ref={canvas} className="model-canvas" data-loaded={state.kind === 'shown' ? 'true' : undefined}
          data-drawn={state.kind === 'shown' && drawn ? 'true' : undefined}
          aria-label={intl.formatMessage({ id: 'design.model.canvasLabel' }, { file })} />
      )}
      {state.kind === 'failed' ? <p className="model-problem" role="alert">{failure(intl, document, state.error)}</p> : null}
      {state.kind === 'loading' ? <LoadingProgress name={document.name} progress={state.progress} reading={state.reading} /> : null}
      {state.kind === 'shown' ? (
        <dl className="model-facts">
          <dt><FormattedMessage id="design.model.sizeLabel" /></dt>
          <dd data-testid="model-size">{formatModelSize(state.size, intl)}</dd>
        </dl>
      ) : null}
      {state.kind === 'shown' && state.notes.length > 0 ? (
        <div className="model-notes" data-testid="model-notes">
          <p><FormattedMessage id="design.model.notesIntro" /></p>
          <ul>{state.notes.map((note) => <li key={JSON.stringify(note)}>{modelWords(intl, note)}</li>)}</ul>
        </div>
      ) : null}
      {state.kind === 'shown' && state.layers.length > 0
        ? <LayerSlider layers={state.layers} onChange={(layer) => scene.current?.showLayersUpTo(layer)} /> : null}
      <div className="form-actions">
        <span role="status">{status}</span>
        {state.kind === 'shown' ? <button type="button" onClick={() => scene.current?.fit()}><FormattedMessage id="design.model.fit" /></button> : null}
        {/* While loading, closing cancels: the fetch is aborted and the model worker stopped. */}
        <button type="button" onClick={onClose}><FormattedMessage id={state.kind === 'loading' ? 'design.model.cancel' : 'design.model.close'} /></button>
      </div>
    </section>
  );
}
