import type { Page } from 'playwright-core';
import { PNG_LOGO } from './api';
import { TEXTS, type TLanguage } from './browser';

/**
 * Creates a brand, hotel group or hotel through the console's create dialog on the list page that
 * is open, with a logo and an address, and waits for its detail screen.
 */
export async function createHostInConsole(
  page: Page,
  language: TLanguage,
  level: 'brand' | 'hotel_group' | 'hotel',
  name: string,
  brandName?: string,
): Promise<void> {
  const t = TEXTS[language];
  await page.getByRole('button', { name: t.management.form.create[level] }).click();
  const form = page.getByTestId('host-form');
  if (brandName) await form.locator('select[name="brandId"]').selectOption({ label: brandName });
  await form.getByTestId('logo-file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG_LOGO });
  await form.getByTestId('logo-preview').locator('img').waitFor();
  await form.locator('input[name="name"]').fill(name);
  await form.locator('input[name="address"]').fill('東京都千代田区丸の内1-1-1');
  await form.getByRole('button', { name: t.management.form.create_submit }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}
