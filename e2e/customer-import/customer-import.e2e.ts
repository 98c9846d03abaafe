import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS } from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(LANGUAGES)('customer import (%s)', (language) => {
  const t = TEXTS[language];
  const ci = t.customer_import;

  it('imports a file with failed and identical rows: counts, reasons, then the customers', async () => {
    // Distinct phone numbers per language and run, so the two runs do not meet.
    const stem = `07${language === 'ja' ? 1 : 2}${String(Date.now()).slice(-6)}`;
    const phone = (n: number) => `${stem}${n}0`;
    const token = await apiToken('hotel.staff@demo.test');
    // An existing customer of the hotel, whom the file repeats unchanged.
    const existing = await apiCall('POST', '/v1/customers', {
      token,
      body: { lastName: '佐藤', firstName: '一郎', phone: phone(9), address: '東京都新宿区1-1' },
    });
    expect(existing.status).toBe(200);
    const file = [
      '姓,名,電話番号,住所',
      `山田,太郎,${phone(1).slice(0, 3)}-${phone(1).slice(3, 7)}-${phone(1).slice(7)},"東京都新宿区` +
        '\n' +
        `西新宿1-1"`,
      `鈴木,花子,${phone(2)},東京都渋谷区`,
      `田中,誠,090-abcd-0004,東京都`,
      `鈴木,花子,${phone(2)},東京都渋谷区`,
      `佐藤,一郎,${phone(9)},東京都新宿区1-1`,
    ].join('\r\n');

    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'hotel.staff@demo.test');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/customer-list/import');
    await page.getByText(ci.upload.drop_title).waitFor();
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'guests.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${file}`) });

    // Step two: what the server read, and what the review found.
    await page.getByTestId('import-count-new').getByText('2', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-encoding').textContent()).toBe(ci.file.encodings.utf_8);
    expect(await page.getByTestId('import-count-failed').textContent()).toContain('1');
    expect(await page.getByTestId('import-count-identical').textContent()).toContain('2');
    const failed = page.getByTestId('import-rows-failed');
    await failed.getByText(`${ci.fields.phone}: ${t.errors.use_numbers_only}`).waitFor();
    expect(await failed.getByTestId('import-row').first().locator('td').first().textContent()).toBe('4');
    await screenshot(page, `customer-import-review-${language}`);
    await page.getByRole('tab', { name: new RegExp(ci.review.identical_rows) }).click();
    const identical = page.getByTestId('import-rows-identical');
    await identical.getByText(ci.review.same_as_row.replace('{{row}}', '3')).waitFor();
    await identical.getByText(ci.review.same_as_customer).waitFor();

    // Step three: the email reception, then the import and its result.
    await page.getByTestId('import-next').click();
    await page.getByText(ci.reception.title).waitFor();
    await page.getByLabel(ci.reception.options.booking).check();
    await page.getByTestId('import-run').click();
    const result = page.getByTestId('import-result');
    await result.getByText(ci.result.completed).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-result-inserted').textContent()).toContain('2');
    expect(await page.getByTestId('import-result-unchanged').textContent()).toContain('1');
    // The row that failed and the repeated row were skipped: said, and listed with their reasons.
    expect(await page.getByTestId('import-result-summary').textContent()).toBe(
      ci.result.summary.replace('{{inserted}}', '2').replace('{{updated}}', '0').replace('{{skipped}}', '2'),
    );
    const skipped = page.getByTestId('import-skipped-rows');
    await skipped.getByText(`${ci.fields.phone}: ${t.errors.use_numbers_only}`).waitFor();
    await skipped.getByTestId('import-download-failures').waitFor();
    await screenshot(page, `customer-import-result-${language}`);

    // The new customers are the hotel's now.
    const found = await apiCall<{ items: { phone: string; address: string }[] }>(
      'GET',
      `/v1/customers?search=${stem}`,
      { token },
    );
    expect(found.data.items.map((c) => c.phone).sort()).toEqual([phone(1), phone(2), phone(9)]);
    expect(found.data.items.find((c) => c.phone === phone(1))?.address).toBe('東京都新宿区\n西新宿1-1');
    await result.getByRole('link', { name: ci.result.view_customers }).click();
    await page.waitForURL((url) => url.pathname === '/customer-list');
    // Newest first: the list shows the customers the file added.
    for (const n of [1, 2]) await page.locator(`[data-testid="customer-row"][data-phone="${phone(n)}"]`).waitFor();
    await screenshot(page, `customer-import-list-${language}`);
    await context.close();
  });

  it('says which required columns a file lacks', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'hotel.staff@demo.test');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/customer-list/import');
    await page.getByTestId('import-file').setInputFiles({
      name: 'wrong.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,email\r\nTaro,taro@example.jp\r\n'),
    });
    const error = page.getByTestId('import-upload-error');
    await error.getByText(t.errors.import_missing_columns).waitFor();
    await error.getByText(ci.fields.phone, { exact: true }).waitFor();
    await error.getByText(ci.fields.address, { exact: true }).waitFor();
    await context.close();
  });

  it('offers a sample file in the page’s language, which imports as it is', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'hotel.staff@demo.test');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/customer-list/import');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ci.upload.sample }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(language === 'ja' ? 'customers-sample.csv' : 'customers-sample-en.csv');
    const sample = readFileSync(await download.path());
    // Headed in the page's language, as the export heads its file.
    expect(sample.toString('utf8')).toContain(
      language === 'ja' ? '姓,名,電話番号' : 'Last name,First name,Phone number',
    );
    // The link did not open the file chooser of the drop zone it sits in: the page is still at step one.
    await page.getByText(ci.upload.drop_title).waitFor();
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: download.suggestedFilename(), mimeType: 'text/csv', buffer: sample });
    // Reviewed with every column read: one customer to add (or, once imported, to leave), nothing failed.
    await page.getByTestId('import-count-failed').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-count-failed').textContent()).toContain('0');
    await context.close();
  });
});
