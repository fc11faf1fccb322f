import type { Locator } from 'playwright-core';

/** The actions menu button of one of My designs' cards ("Actions for “Hinge”"). */
export const actionsButton = (row: Locator) => row.getByRole('button', { name: /^Actions for/ });

/** Opens a card's actions menu by a click and gives its item `name` (Edit, Publish…, Delete…, Open, Show in Sync). */
export async function ownAction(row: Locator, name: string): Promise<Locator> {
  const button = actionsButton(row);
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return row.getByRole('menu').getByRole('menuitem', { name, exact: true });
}
