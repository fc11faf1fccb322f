/**
 * What the person does on the 3D view's canvas (turn, zoom, pan), forwarded from the page to the model worker, where
 * the canvas is drawn: the page listens on its canvas and sends each event's few fields (forwardInput); in the worker
 * an element stand-in (model-element-proxy.ts) dispatches them to three.js's OrbitControls. No three.js here.
 */
/** The fields of a pointer, wheel or context-menu event OrbitControls reads. */
export interface ForwardedEvent {
  type: 'pointerdown' | 'pointermove' | 'pointerup' | 'pointercancel' | 'wheel' | 'contextmenu';
  pointerId: number;
  pointerType: string;
  button: number;
  clientX: number;
  clientY: number;
  pageX: number;
  pageY: number;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  deltaY: number;
  deltaMode: number;
}

/** Where the canvas is on the page and how large it is, in CSS pixels, and the display's pixels per CSS pixel. */
export interface CanvasBox { left: number; top: number; width: number; height: number; pixelRatio: number }

function fieldsOf(event: PointerEvent | WheelEvent | MouseEvent): ForwardedEvent {
  const pointer = event as Partial<PointerEvent>;
  return {
    type: event.type as ForwardedEvent['type'],
    pointerId: pointer.pointerId ?? 0, pointerType: pointer.pointerType ?? 'mouse', button: event.button,
    clientX: event.clientX, clientY: event.clientY, pageX: event.pageX, pageY: event.pageY,
    ctrlKey: event.ctrlKey, metaKey: event.metaKey, shiftKey: event.shiftKey,
    deltaY: (event as WheelEvent).deltaY ?? 0, deltaMode: (event as WheelEvent).deltaMode ?? 0,
  };
}

/**
 * Forwards the pointer (mouse, pen, touch) and wheel events of `canvas` to `send`: a drag's pointer is captured on the
 * canvas, so that its moves and its end reach the view however far it goes; moves are sent only while a pointer is
 * down; the wheel and the context menu do not scroll the page or open a menu. Returns the function that stops it.
 */
export function forwardInput(canvas: HTMLCanvasElement, send: (event: ForwardedEvent) => void): () => void {
  const down = new Set<number>();
  const onDown = (event: PointerEvent) => {
    down.add(event.pointerId);
    canvas.setPointerCapture(event.pointerId);
    canvas.style.cursor = 'grabbing';
    send(fieldsOf(event));
  };
  const onMove = (event: PointerEvent) => {
    if (down.has(event.pointerId)) send(fieldsOf(event));
  };
  const onUp = (event: PointerEvent) => {
    if (!down.delete(event.pointerId)) return;
    if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    if (down.size === 0) canvas.style.cursor = 'grab';
    send(fieldsOf(event));
  };
  const onWheel = (event: WheelEvent) => {
    event.preventDefault();
    send(fieldsOf(event));
  };
  const onMenu = (event: MouseEvent) => {
    event.preventDefault();
  };
  canvas.style.cursor = 'grab';
  canvas.addEventListener('pointerdown', onDown);
  canvas.addEventListener('pointermove', onMove);
  canvas.addEventListener('pointerup', onUp);
  canvas.addEventListener('pointercancel', onUp);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  canvas.addEventListener('contextmenu', onMenu);
  return () => {
    canvas.removeEventListener('pointerdown', onDown);
    canvas.removeEventListener('pointermove', onMove);
    canvas.removeEventListener('pointerup', onUp);
    canvas.removeEventListener('pointercancel', onUp);
    canvas.removeEventListener('wheel', onWheel);
    canvas.removeEventListener('contextmenu', onMenu);
  };
}
