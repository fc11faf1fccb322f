/**
 * The 3D view's canvas as three.js's OrbitControls sees it in the model worker: the page forwards what the person does
 * on its canvas (model-input.ts), and this stand-in dispatches it as the canvas's own events.
 */
import { EventDispatcher } from 'three';
import type { CanvasBox, ForwardedEvent } from './model-input';

type ProxyEvents = Record<ForwardedEvent['type'] | 'keydown' | 'keyup', ForwardedEvent & { preventDefault(): void; stopPropagation(): void }>;

/**
 * The canvas as OrbitControls sees it, in the worker: events forwarded from the page, its size and place, and the
 * document it listens on for a drag's moves (itself: the page captures the pointer on its canvas and forwards them).
 */
export class ElementProxy extends EventDispatcher<ProxyEvents> {
  readonly style: Record<string, string> = {};
  private box: CanvasBox;

  constructor(box: CanvasBox) {
    super();
    this.box = box;
  }

  get ownerDocument(): this {
    return this;
  }

  get clientWidth(): number {
    return this.box.width;
  }

  get clientHeight(): number {
    return this.box.height;
  }

  place(box: CanvasBox): void {
    this.box = box;
  }

  getBoundingClientRect(): { left: number; top: number; width: number; height: number; right: number; bottom: number; x: number; y: number } {
    const { left, top, width, height } = this.box;
    return { left, top, width, height, right: left + width, bottom: top + height, x: left, y: top };
  }

  /** The page captures the pointer on its own canvas (forwardInput). */
  setPointerCapture(): void {}

  releasePointerCapture(): void {}

  focus(): void {}

  forward(event: ForwardedEvent): void {
    this.dispatchEvent({ ...event, preventDefault() {}, stopPropagation() {} });
  }
}

