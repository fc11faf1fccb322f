import { useEffect, useRef, useState } from 'react';
import type { DocumentView } from '../../../../shared';
import type { ModelScene } from './model-scene';
import { useOpenedInPlace } from '../use-escape';

type State = { kind: 'loading' } | { kind: 'shown'; triangles: number } | { kind: 'failed'; message: string };

/**
 * The interactive 3D view of one model, made on demand (three.js is loaded only then). Its bytes come from the host's
 * own address for the file (never a link to the service's file: rule 1), so a model seen once works offline.
 * Opened, it takes the focus; Escape closes it, and the focus goes back to the button that opened it.
 */
export function ModelPreview({ document, onClose, onCached }: { document: DocumentView; onClose(): void; onCached(): void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const scene = useRef<ModelScene | null>(null);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const { focusRef, onKeyDown } = useOpenedInPlace<HTMLElement>(onClose);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const [{ showModel }, response] = await Promise.all([import('./model-scene'), fetch(document.previewUrl!)]);
        if (!response.ok) throw new Error(response.status === 404 ? 'The file is not cached, and the service cannot be reached.' : `The file could not be read (HTTP ${response.status}).`);
        const bytes = await response.arrayBuffer();
        if (cancelled || !canvas.current) return;
        const dark = matchMedia('(prefers-color-scheme: dark)').matches;
        scene.current = showModel(canvas.current, document.type, bytes, dark);
        setState({ kind: 'shown', triangles: scene.current.triangles });
        // Fetched once, the file is now kept for offline use: the file list says so.
        if (!document.cached) onCached();
      } catch (error) {
        if (!cancelled) setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    })();
    return () => {
      cancelled = true;
      scene.current?.dispose();
      scene.current = null;
    };
    // Only a new document shows anew (a refreshed list gives the same one as a new object).
  }, [document.id]);

  return (
    <section ref={focusRef} tabIndex={-1} className="model-preview" aria-label={`3D view of ${document.name}`} onKeyDown={onKeyDown}>
      <canvas ref={canvas} className="model-canvas" data-loaded={state.kind === 'shown' ? 'true' : undefined}
        aria-label={`${document.name}: drag to turn, scroll to zoom`} />
      <div className="form-actions">
        <span role="status">
          {state.kind === 'loading' ? 'Loading the model…' : state.kind === 'failed' ? state.message : `${document.name}: ${state.triangles.toLocaleString()} triangles. Drag to turn, scroll to zoom.`}
        </span>
        {state.kind === 'shown' ? <button type="button" onClick={() => scene.current?.fit()}>Fit to view</button> : null}
        <button type="button" onClick={onClose}>Close the 3D view</button>
      </div>
    </section>
  );
}
