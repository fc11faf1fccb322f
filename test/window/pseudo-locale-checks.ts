import type { Page } from 'playwright-core';
import ENGLISH from '../../shared/i18n/messages/en.json';

/** The few DOM names the checks in the page use (these tests' TypeScript world has no DOM types). */
interface Node { nodeValue: string | null; parentElement: Element | null }
interface Element {
  tagName: string; className: string; textContent: string | null; scrollWidth: number; clientWidth: number;
  closest(selector: string): Element | null;
  getBoundingClientRect(): { left: number; right: number; width: number };
}
interface PageWorld {
  document: {
    scrollingElement: Element; querySelectorAll(selector: string): ArrayLike<Element>;
    createTreeWalker(root: unknown, show: number): { nextNode(): Node | null };
    body: unknown;
  };
  innerWidth: number;
  getComputedStyle(element: Element): { overflowX: string; textOverflow: string; visibility: string; display: string };
}

/** The English of the messages of these areas with no placeholder: none of them may be seen as it is in the pseudo-locale. */
export function englishWordsOf(areas: readonly string[]): string[] {
  return Object.entries(ENGLISH as Record<string, string>)
    .filter(([id, text]) => areas.some((area) => id.startsWith(area)) && !/[{<]/.test(text) && /[a-z]{3}/i.test(text))
    .map(([, text]) => text);
}

/**
 * What the window shows in the pseudo-locale that is cut off or left in English: an element whose accented words
 * overflow a box that hides them (except inside `exempt`: what gives way by design), words wider than the window, the
 * page scrolling sideways, and a text node that is one of `english` as it is.
 */
export async function pseudoLocaleProblems(page: Page, english: readonly string[], exempt = '.visually-hidden'): Promise<string[]> {
  return page.evaluate(({ english, exempt }) => {
    const world = globalThis as unknown as PageWorld;
    const found: string[] = [];
    const describe = (element: Element) => `${element.tagName.toLowerCase()}.${element.className}: "${(element.textContent ?? '').trim().slice(0, 80)}"`;
    if (world.document.scrollingElement.scrollWidth > world.innerWidth + 1) found.push(`the page scrolls sideways (${world.document.scrollingElement.scrollWidth} px)`);
    for (const element of Array.from(world.document.querySelectorAll('main *'))) {
      const style = world.getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden' || element.closest(exempt)) continue;
      if (!/[\u00c0-\u024f]/.test(element.textContent ?? '')) continue;
      const clipsX = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (clipsX && element.scrollWidth > element.clientWidth + 1) found.push(`cut off: ${describe(element)}`);
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.right > world.innerWidth + 1 || box.left < -1)) found.push(`outside the window: ${describe(element)}`);
    }
    const walker = world.document.createTreeWalker(world.document.body, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.nodeValue ?? '').trim();
      if (text && english.includes(text) && !node.parentElement?.closest('.visually-hidden, [hidden]')) found.push(`in English: "${text}"`);
    }
    return found;
  }, { english, exempt });
}
