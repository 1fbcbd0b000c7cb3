/**
 * The form controls every screen builds its forms from, as a person works them: a select (a
 * button that opens a list of options), a multiple select, and a combobox typed into.
 */
import type { Page } from '@playwright/test';

/** A select, found by the start of its label: its button carries the label and the value. */
export function selectButton(page: Page, label: string | RegExp) {
  return page.getByRole('button', { name: typeof label === 'string' ? new RegExp(label) : label });
}

/** One option of a select. */
export async function choose(page: Page, label: string | RegExp, option: string) {
  await selectButton(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Several options of a multiple select, then the list is closed. */
export async function chooseMany(page: Page, label: string | RegExp, options: string[]) {
  await selectButton(page, label).click();
  for (const option of options)
    await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** A combobox: opened, the option typed, then clicked among those it leaves. */
export async function pick(page: Page, combobox: string, option: string) {
  const field = page.getByRole('combobox', { name: combobox });
  await field.click();
  await field.fill(option);
  await page.getByRole('option', { name: option }).click();
}
