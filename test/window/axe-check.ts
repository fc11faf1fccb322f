import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

/**
 * axe-core's serious and critical findings on what the page shows now, in both themes: the whole page, or only the
 * parts `within` selects (CSS selectors).
 */
export async function seriousViolations(page: Page, within?: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Evaluated through the DevTools protocol, which the page's CSP does not govern (the window itself allows no eval).
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async (parts) => {
      const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
      const context = parts ? { include: parts.map((part) => [part]) } : (globalThis as unknown as { document: unknown }).document;
      const result = await axe.run(context, { resultTypes: ['violations'] });
      return result.violations;
    }, within ? [...within] : null);
    for (const violation of violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        found.push(`${colorScheme}: ${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
