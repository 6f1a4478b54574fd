// The QA dashboard opened on a sandbox the way a shared link opens it (`/#token=…`), and the
// places a test looks at: a purchase's row, a subscriber's card, a template's row, the `role=status`
// element where an action answers, and the API's message beside a refused field.

import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Opens `/#token=…` and waits until the sandbox is read. */
export async function openDashboard(page: Page, origin: string, token: string): Promise<void> {
  await page.goto(`${origin}/#token=${token}`);
  await expect.poll(() => page.locator('#message').textContent()).toMatch(/^Sandbox loaded/);
}

export const purchaseRow = (page: Page, id: string): Locator => page.locator(`#purchases tr[data-purchase="${id}"]`);

export const subscriberCard = (page: Page, id: string): Locator => page.locator(`article[data-subscriber="${id}"]`);

/** The `role=status` element of a purchase row or subscriber card: where its action's result shows. */
export const resultIn = (owner: Locator): Locator => owner.getByRole('status');

export const templateRow = (page: Page, id: string): Locator => page.locator(`#templates tr[data-template="${id}"]`);

/**
 * The API's message for a refused field as a screen reader gets it: the field is aria-invalid, and the
 * last element its aria-describedby names holds the message. Null for a field that is not refused.
 */
export async function fieldMessage(field: Locator): Promise<string | null> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const ids = (await field.getAttribute('aria-describedby'))?.split(' ') ?? [];
  return field.page().locator(`[id="${ids.at(-1)}"]`).textContent();
}
