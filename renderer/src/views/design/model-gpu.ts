/** How often a fence is checked (between tasks: the page's thread never waits inside one). */
const FENCE_POLL_MS = 4;

/**
 * Settles once the GPU has done every command given it so far (a drawing on the canvas is then on it): a fence, polled
 * between tasks. WebGL 1 has no fences: it settles at the next frame.
 */
export async function whenGpuDone(context: WebGLRenderingContext | WebGL2RenderingContext, signal?: AbortSignal): Promise<void> {
  if (!(context instanceof WebGL2RenderingContext)) {
    await nextFrame();
    return;
  }
  const gl = context;
  const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!fence) return;
  gl.flush();
  try {
    while (!signal?.aborted && !gl.isContextLost()) {
      const status = gl.clientWaitSync(fence, 0, 0);
      if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED || status === gl.WAIT_FAILED) return;
      await new Promise((resolve) => setTimeout(resolve, FENCE_POLL_MS));
    }
  } finally {
    if (!gl.isContextLost()) gl.deleteSync(fence);
  }
}

/** The next frame (a worker drawing on an OffscreenCanvas has requestAnimationFrame; a worker without it, a timer). */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => resolve());
    else setTimeout(resolve, 16);
  });
}

let software: boolean | null = null;

/**
 * Whether WebGL is drawn by a software renderer (SwiftShader, llvmpipe: a machine without a usable GPU, a virtual
 * machine, a remote desktop), asked once of a context made for the question and let go: in the model worker, on an
 * OffscreenCanvas of its own, while the file is fetched.
 */
export function softwareRendered(): boolean {
  if (software !== null) return software;
  const probe = new OffscreenCanvas(1, 1).getContext('webgl2');
  const info = probe?.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(probe!.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  probe?.getExtension('WEBGL_lose_context')?.loseContext();
  software = /swiftshader|llvmpipe|softpipe|software/i.test(name);
  return software;
}
