import { useEffect, useId, useRef, useState } from 'react';
import type { IntlShape } from '@formatjs/intl';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DocumentView } from '../../../../shared';
import { formatProgress, ModelFetchError, type FetchProgress } from './model-fetch';
import { markModelStep } from './model-marks';
import { formatLayerHeight, formatModelSize } from './model-measure';
import { startModelView, type ModelView } from './model-view';
import { modelWords, type ModelWords } from './model-words';
import { useOpenedInPlace } from '../use-escape';

type State =
  | { kind: 'loading'; progress: FetchProgress | null; reading: boolean }
  | {
    kind: 'shown'; triangles: number; size: { width: number; depth: number; height: number }; layers: { z: number }[]; notes: ModelWords[];
    /** Why the model is not drawn (no WebGL for the worker: the browser's words); null when it is. */
    notDrawn: string | null;
  }
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
 * The interactive 3D view of one model, made on demand: the model worker (model-worker.ts) fetches its bytes from the
 * host's own address for the file (never a link to the service's file: rule 1, so a model seen once works offline),
 * reads them and draws them on the view's canvas, handed to it as an OffscreenCanvas; the page only forwards what the
 * person does on the canvas and loads no three.js. Beside it: the model's size in millimetres, what the file holds
 * that the view does not show, and for G-code a slider of the layers shown. While it loads: the bytes fetched of the
 * total, then "Reading…"; its button then cancels (the worker is ended). A file that cannot be read says which and
 * why, in the view; the page goes on. Where the worker cannot draw (no WebGL for it), the facts are shown and the view
 * says so. Opened, it takes the focus; Escape closes it (the worker lets everything go and ends), and the focus goes
 * back to the button that opened it.
 */
export function ModelPreview({ document, onClose, onCached }: { document: DocumentView; onClose(): void; onCached(): void }) {
  const intl = useIntl();
  const holder = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const view = useRef<ModelView | null>(null);
  const [state, setState] = useState<State>({ kind: 'loading', progress: null, reading: false });
  const [drawn, setDrawn] = useState(false);
  const { focusRef, onKeyDown } = useOpenedInPlace<HTMLElement>(onClose);

  useEffect(() => {
    let cancelled = false;
    const closing = new AbortController();
    markModelStep('opened');
    setState({ kind: 'loading', progress: null, reading: false });
    setDrawn(false);
    // The model worker starts at once and fetches the file itself: its start and the loading of the type's reader
    // and of three.js go on while the bytes come; the page's thread never handles them, nor draws.
    const model = startModelView(document.type.toLowerCase(), closing.signal);
    view.current = model;
    // A canvas of this showing's own: handed to the worker, a canvas is the worker's for good.
    const made = globalThis.document.createElement('canvas');
    made.className = 'model-canvas';
    holder.current?.append(made);
    canvas.current = made;
    const dropCanvas = () => {
      made.remove();
      if (canvas.current === made) canvas.current = null;
    };
    let shown = 0;
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    model.load(document.previewUrl!, made, dark, {
      onProgress: (progress) => {
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
      onDrawn: () => {
        if (!cancelled) setDrawn(true);
      },
      onFailed: (error) => {
        if (cancelled) return;
        dropCanvas();
        setState({ kind: 'failed', error });
      },
    }).then(({ facts, notDrawn }) => {
      if (cancelled) return;
      if (notDrawn !== null) dropCanvas();
      setState({ kind: 'shown', ...facts, notDrawn });
    }, (error: unknown) => {
      if (cancelled) return;
      dropCanvas();
      setState({ kind: 'failed', error });
    });
    return () => {
      cancelled = true;
      closing.abort();
      dropCanvas();
      if (view.current === model) view.current = null;
    };
    // Only a new document shows anew (a refreshed list gives the same one as a new object).
  }, [document.id]);

  // Drawn once the view has shown what it knows of the model (its size, what it holds).
  useEffect(() => {
    if (state.kind === 'shown') view.current?.show();
  }, [state.kind]);

  // The canvas is made by the effect above (not rendered by React): its name and state are kept on it here.
  const canvasLabel = intl.formatMessage({ id: 'design.model.canvasLabel' }, { file: document.name });
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    element.setAttribute('aria-label', canvasLabel);
    const mark = (name: 'loaded' | 'drawn', on: boolean) => {
      if (on) element.dataset[name] = 'true';
      else delete element.dataset[name];
    };
    mark('loaded', state.kind === 'shown');
    mark('drawn', state.kind === 'shown' && drawn);
  }, [canvasLabel, state.kind, drawn]);

  const file = document.name;
  const description = state.kind !== 'shown' ? null
    : state.layers.length > 0 ? intl.formatMessage({ id: 'design.model.describeToolpaths' }, { file, layers: state.layers.length })
      : intl.formatMessage({ id: 'design.model.describeMesh' }, { file, triangles: state.triangles });
  const status = state.kind === 'loading'
    ? intl.formatMessage({ id: state.reading ? 'design.model.reading' : 'design.model.loading' }, { file })
    // Not drawn, the view says why (an alert); "drag to turn" would not hold.
    : state.kind === 'failed' || state.notDrawn !== null ? '' : description;
  return (
    <section ref={focusRef} tabIndex={-1} className="model-preview" aria-label={intl.formatMessage({ id: 'design.model.label' }, { file })} onKeyDown={onKeyDown}>
      <div ref={holder} className="model-canvas-holder" hidden={state.kind === 'failed' || (state.kind === 'shown' && state.notDrawn !== null)} />
      {state.kind === 'failed' ? <p className="model-problem" role="alert">{failure(intl, document, state.error)}</p> : null}
      {state.kind === 'shown' && state.notDrawn !== null
        ? <p className="model-problem" role="alert">{intl.formatMessage({ id: 'design.model.notDrawn' }, { file })}</p> : null}
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
        ? <LayerSlider layers={state.layers} onChange={(layer) => view.current?.showLayersUpTo(layer)} /> : null}
      <div className="form-actions">
        <span role="status">{status}</span>
        {state.kind === 'shown' && state.notDrawn === null ? <button type="button" onClick={() => view.current?.fit()}><FormattedMessage id="design.model.fit" /></button> : null}
        {/* While loading, closing cancels: the fetch is aborted and the model worker stopped. */}
        <button type="button" onClick={onClose}><FormattedMessage id={state.kind === 'loading' ? 'design.model.cancel' : 'design.model.close'} /></button>
      </div>
    </section>
  );
}
