import type { WebContents, WebFrameMain } from 'electron';
import { APP_ORIGIN } from '../window/content-security-policy';
import { schemeHostPort } from '../window/navigation-policy';

/** What an `ipcMain` event tells of who sent it (IpcMainEvent and IpcMainInvokeEvent both have this shape). */
export interface SenderEvent {
  sender: Pick<WebContents, 'id' | 'isDestroyed'>;
  /** Null once the frame navigated away or was destroyed. */
  senderFrame: Pick<WebFrameMain, 'url' | 'parent' | 'isDestroyed' | 'detached'> | null;
}

export interface TrustedSenders {
  /** `webContents.id` of each of the app's own windows. */
  webContentsIds: ReadonlySet<number> | readonly number[];
  appOrigin?: string;
}

/**
 * Why a message is refused, or null when it comes from the main frame of one of our windows showing our own origin.
 * After VS Code's `validatedIpcMain` (origin, main frame) and GitHub Desktop's `trusted-ipc-sender.ts` (own window): a
 * subframe, a window we did not make, a page that navigated elsewhere and a frame already gone are all refused.
 */
export function senderRefusal(event: SenderEvent, { webContentsIds, appOrigin = APP_ORIGIN }: TrustedSenders): string | null {
  const ids = webContentsIds instanceof Set ? webContentsIds : new Set(webContentsIds as readonly number[]);
  try {
    if (event.sender.isDestroyed()) return 'the sending window is closed';
    if (!ids.has(event.sender.id)) return 'not one of the app\'s windows';
    const frame = event.senderFrame;
    if (frame === null || frame.isDestroyed() || frame.detached) return 'the sending frame is gone';
    if (frame.parent !== null) return 'not the window\'s main frame';
    const address = frame.url;
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return 'the sending frame has no valid address';
    }
    if (schemeHostPort(url) !== appOrigin) return 'the sending page is not the app\'s own';
    return null;
  } catch {
    // A frame disposed while being read throws: it is gone.
    return 'the sending frame is gone';
  }
}

export function isTrustedSender(event: SenderEvent, senders: TrustedSenders): boolean {
  return senderRefusal(event, senders) === null;
}
