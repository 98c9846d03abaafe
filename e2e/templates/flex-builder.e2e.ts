import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  launchBrowser,
  openPage,
  readOutbox,
  screenshot,
  signIn,
  TEXTS,
  type TLanguage,
} from '../support/browser';
import { apiCall, apiToken, PNG_LOGO, uniqueEmail } from '../support/api';

// The brand さくらホテルズ's admin builds a bilingual pre-arrival mail in the flex builder.
const ADMIN = 'brand.admin@demo.test';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A pointer drag as dnd-kit sees it: press, several moves (its sensor starts after 4 px and
 * tracks the pointer), release over the target's middle.
 */
async function drag(page: Page, from: Locator, to: Locator, where: 'middle' | 'top' = 'middle') {
  await from.scrollIntoViewIfNeeded();
  const source = await from.boundingBox();
  if (!source) throw new Error('nothing to drag');
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 + 10, source.y + source.height / 2 + 10, { steps: 4 });
  // The drag has begun when its chip follows the pointer; the canvas opens its gaps then, so the
  // target is measured only after that.
  await page.getByTestId('drag-chip').waitFor();
  await page.waitForTimeout(100);
  // dnd-kit scrolls the page when the dragged item nears an edge: aim again until the target holds still.
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const target = await to.boundingBox();
    if (!target) throw new Error('nowhere to drop');
    const x = target.x + target.width / 2;
    const y = where === 'top' ? target.y + Math.min(6, target.height / 4) : target.y + target.height / 2;
    await page.mouse.move(x, y, { steps: attempt === 0 ? 12 : 2 });
    await page.waitForTimeout(150);
    const again = await to.boundingBox();
    if (again && Math.abs(again.y - target.y) < 1) break;
  }
  await page.mouse.up();
}

/** The block types on the canvas, top to bottom. */
async function blockTypes(page: Page): Promise<string[]> {
  return page
    .getByTestId('canvas-block')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-block-type') ?? ''));
}

async function expectBlocks(page: Page, types: string[]) {
  await expect.poll(() => blockTypes(page), { timeout: 10_000 }).toEqual(types);
}

async function waitSaved(page: Page) {
  await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor({ timeout: 15_000 });
}

/** Whether the mail in the preview frame scrolls sideways. */
async function previewScrollsSideways(page: Page): Promise<boolean> {
  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await frame.locator('body').waitFor();
  return frame
    .locator('html')
    .evaluate(
      (html) => html.scrollWidth > html.clientWidth + 1 || html.ownerDocument.body.scrollWidth > html.clientWidth + 1,
    );
}

/** A guest of the brand at さくらホテル 新宿, whose data a preview can show. */
async function newGuest(language: TLanguage): Promise<{ firstName: string; lastName: string }> {
  const token = await apiToken(ADMIN);
  const hotels = await apiCall<{ items: { id: string; name: string }[] }>('GET', '/v1/hotels?pageSize=100', { token });
  const hotelId = hotels.data.items.find((h) => h.name === 'さくらホテル 新宿')!.id;
  const guest = { firstName: 'Emily', lastName: `Preview${Date.now().toString(36)}${language}` };
  const created = await apiCall('POST', '/v1/customers', {
    token,
    body: {
      ...guest,
      phone: `070${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      email: `${guest.lastName.toLowerCase()}@mail.yado.jp`,
      address: '東京都新宿区西新宿2-2-2',
      hotelId,
    },
  });
  if (created.status !== 200) throw new Error(`adding a customer answered ${created.status}`);
  return guest;
}

/** A template of three text blocks, a, b and c, in one section, made through the API. */
async function threeTexts(): Promise<string> {
  const text = (id: string, words: string) => ({
    id,
    type: 'text',
    content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: words }] }] },
  });
  const created = await apiCall<{ id: string }>('POST', '/v1/templates', {
    token: await apiToken(ADMIN),
    body: {
      name: `Keyboard ${Date.now().toString(36)}`,
      contents: {
        ja: {
          subject: 'ご案内',
          preheader: '',
          document: {
            version: 1,
            sections: [
              { id: 's1', columns: [{ id: 'c1', blocks: [text('a', 'AAA'), text('b', 'BBB'), text('c', 'CCC')] }] },
            ],
          },
        },
      },
    },
  });
  if (created.status !== 200) throw new Error(`creating a template answered ${created.status}`);
  return created.data.id;
}

describe.each(LANGUAGES)('the flex builder (%s)', (language: TLanguage) => {
  const t = TEXTS[language].templates;

  it('builds a mail by dragging blocks, reorders and undoes, previews it on a phone and sends a test', async () => {
    const guest = await newGuest(language);
    const { page } = await openPage(browser, language);
    // A laptop's 1366 px: the palette, the whole 600 px mail and the settings side by side (the
    // mail's right edge hid behind the canvas's scrollbar at this width until 2026-11-30).
    await page.setViewportSize({ width: 1366, height: 1000 });
    await signIn(page, language, ADMIN);
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/templates');

    // A new template opens in the builder.
    const name = `${language === 'ja' ? 'ご到着前のご案内' : 'Pre-arrival'} ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: t.actions.create }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(t.fields.name).fill(name);
    await dialog.getByRole('button', { name: t.details.create_submit }).click();
    await page.waitForURL(/\/templates\/[0-9a-f-]+$/);
    await page.getByTestId('palette').waitFor();
    await expect.poll(() => page.getByTestId('template-name').textContent()).toBe(name);
    const canvas = page.getByTestId('canvas');
    expect(await canvas.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    expect(await page.getByTestId('palette').getAttribute('data-compact')).toBeNull();
    // A 1280 px laptop with the sidebar open: the palette turns to icons (each named on hover) and
    // the mail still shows whole; the blocks below are dragged from it.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await expect.poll(() => page.getByTestId('palette').getAttribute('data-compact')).toBe('true');
    expect(await canvas.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );
    await page.locator('[data-item="palette:text"]').hover();
    await page.getByRole('tooltip').getByText(t.blocks.text, { exact: true }).waitFor();

    // Text, image, divider and button, each dragged from the palette to the end of the mail.
    for (const item of ['text', 'image', 'divider', 'button']) {
      await drag(page, page.locator(`[data-item="palette:${item}"]`), page.getByTestId('canvas-end'));
    }
    await expectBlocks(page, ['text', 'image', 'divider', 'button']);

    // Fill them in: a greeting with the guest's name, a photo, a button to the hotel's page.
    const text = page.locator('[data-block-type="text"] .yado-rich-text');
    // The first click selects the block and shows its toolbar above the text; the second places the cursor.
    // A click that lands while the last drop is still settling selects nothing: click again until it shows.
    await expect
      .poll(
        async () => {
          await text.click();
          return page.getByTestId('text-toolbar').isVisible();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    await text.click();
    await page.keyboard.type(language === 'ja' ? 'ご到着をお待ちしております、' : 'We look forward to welcoming you, ');
    await page.getByTestId('text-toolbar').getByTestId('tag-menu').click();
    await page.getByRole('menuitem', { name: t.tags.names.first_name, exact: true }).click();
    await text.locator('[data-personal-tag="first_name"]').waitFor();

    // The image: a GIF and an unreachable address are refused with section 8's messages, a PNG is kept.
    await page.locator('[data-block-type="image"]').click();
    const source = page.getByTestId('image-source');
    await page
      .getByTestId('image-file')
      .setInputFiles({ name: 'room.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await source.getByText(TEXTS[language].errors.logo_wrong_type).waitFor();
    await source.getByRole('textbox', { name: t.image.url }).fill('http://127.0.0.1:9/room.png');
    await source.getByRole('button', { name: t.image.use_url }).click();
    await source.getByText(TEXTS[language].errors.image_fetch_failed).waitFor();
    if (language === 'en') {
      expect(TEXTS.en.errors.image_fetch_failed).toBe(
        'Error fetching image. The content may be unavailable, or the URL could be broken.',
      );
    }
    await page.getByTestId('image-file').setInputFiles({ name: 'room.png', mimeType: 'image/png', buffer: PNG_LOGO });
    await page.locator('[data-block-type="image"] img').waitFor();
    await page.getByLabel(t.fields.alt).fill(language === 'ja' ? '客室の写真' : 'Our twin room');

    await page.locator('[data-block-type="button"]').click();
    await page
      .getByTestId('inspector')
      .getByRole('textbox', { name: t.fields.label })
      .fill(language === 'ja' ? '予約を確認する' : 'View booking');
    await page.getByTestId('inspector').getByTestId('href-field').fill('https://sakura-hotels.example.jp/booking');

    await page
      .getByRole('textbox', { name: TEXTS[language].templates.fields.subject })
      .fill(language === 'ja' ? 'ご到着前のご案内' : 'Before your stay');
    await waitSaved(page);

    // Reorder: the button above the divider, by dragging its handle; then undo with the keyboard.
    const button = page.locator('[data-block-type="button"]');
    await button.hover();
    await drag(page, button.getByTestId('block-handle'), page.locator('[data-block-type="divider"]'), 'top');
    await expectBlocks(page, ['text', 'image', 'button', 'divider']);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await expectBlocks(page, ['text', 'image', 'divider', 'button']);

    // The keyboard moves a selected block too (Alt+Arrow), and undo takes that back as well.
    await page.locator('[data-block-type="divider"]').click();
    await page.locator('[data-block-type="divider"]').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expectBlocks(page, ['text', 'image', 'button', 'divider']);
    await page.keyboard.press('Control+z');
    await expectBlocks(page, ['text', 'image', 'divider', 'button']);
    await waitSaved(page);
    await screenshot(page, `templates-builder-${language}`);

    // An English version, started from the Japanese one, with its own subject.
    await page.getByTestId('language-tab-en').click();
    await page.getByRole('button', { name: t.languages.copy_from.replace('{{language}}', t.languages.ja) }).click();
    await expectBlocks(page, ['text', 'image', 'divider', 'button']);
    await page.getByRole('textbox', { name: t.fields.subject }).fill('Your stay with us');
    await waitSaved(page);
    await page.getByTestId('language-tab-ja').click();
    await expect
      .poll(() => page.getByRole('textbox', { name: t.fields.subject }).inputValue())
      .toBe(language === 'ja' ? 'ご到着前のご案内' : 'Before your stay');

    // The server's rendering at phone and desktop width, without sideways scrolling.
    await page.getByRole('button', { name: t.editor.preview }).click();
    const preview = page.getByRole('dialog');
    await preview.getByTestId('preview-frame').waitFor();
    await preview.getByText(t.preview.mobile.replace('{{width}}', '375')).click();
    await expect.poll(() => preview.getByTestId('preview-frame').getAttribute('width')).toBe('375');
    const mobileFrame = page.frameLocator('[data-testid="preview-frame"]');
    await mobileFrame.getByText(language === 'ja' ? '予約を確認する' : 'View booking').waitFor();
    expect(await previewScrollsSideways(page)).toBe(false);
    await preview
      .getByTestId('preview-box')
      .screenshot({ path: `e2e/screenshots/templates-preview-375-${language}.png` });
    // Each language's version, as the server renders it.
    await preview.getByTestId('preview-language').getByText(t.languages.en, { exact: true }).click();
    await expect.poll(() => preview.getByTestId('preview-subject').textContent()).toBe('Your stay with us');
    await preview.getByTestId('preview-language').getByText(t.languages.ja, { exact: true }).click();
    await expect
      .poll(() => preview.getByTestId('preview-subject').textContent())
      .toBe(language === 'ja' ? 'ご到着前のご案内' : 'Before your stay');
    // With a chosen customer's data the greeting names the guest.
    await preview.getByTestId('preview-customer').fill(guest.lastName);
    await page.getByRole('option', { name: new RegExp(guest.lastName) }).click();
    await mobileFrame.getByText(guest.firstName).waitFor();
    await preview.getByText(t.preview.desktop.replace('{{width}}', '600')).click();
    await expect.poll(() => preview.getByTestId('preview-frame').getAttribute('width')).toBe('600');
    await mobileFrame.getByText(language === 'ja' ? '予約を確認する' : 'View booking').waitFor();
    expect(await previewScrollsSideways(page)).toBe(false);
    await preview
      .getByTestId('preview-box')
      .screenshot({ path: `e2e/screenshots/templates-preview-600-${language}.png` });
    await page.keyboard.press('Escape');

    // A test to an address of ours arrives in the outbox, with the content as built.
    const to = uniqueEmail(`template-test-${language}`);
    await page.getByRole('button', { name: t.editor.test_send }).click();
    const send = page.getByRole('dialog');
    const emails = send.getByTestId('test-send-emails');
    await emails.fill(to);
    await emails.press('Enter');
    await send.getByTestId('test-send-submit').click();
    await page.getByTestId('snackbar').last().waitFor();
    let mails: Awaited<ReturnType<typeof readOutbox>> = [];
    for (let attempt = 0; attempt < 40 && mails.length === 0; attempt += 1) {
      mails = await readOutbox(to);
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 250));
    }
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toContain(language === 'ja' ? 'ご到着前のご案内' : 'Before your stay');
    expect(mail.html).toContain('https://sakura-hotels.example.jp/booking');
    expect(mail.html).toContain(language === 'ja' ? '予約を確認する' : 'View booking');
    expect(mail.text).toContain(language === 'ja' ? 'ご到着をお待ちしております' : 'We look forward to welcoming you');
  });

  it('moves a block with the keyboard alone: Space picks it up, an arrow moves it, Space drops it', async () => {
    const id = await threeTexts();
    const { page } = await openPage(browser, language);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await signIn(page, language, ADMIN);
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`/templates/${id}`);
    await page.getByTestId('palette').waitFor();
    const ids = () =>
      page.getByTestId('canvas-block').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-block-id')));
    await expect.poll(ids).toEqual(['a', 'b', 'c']);

    // Tab from the block to its handle, as a keyboard user reaches it.
    await page.locator('[data-block-id="c"]').focus();
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('block-grip');
    await page.keyboard.press('Space');
    await page.getByTestId('drag-chip').waitFor();
    // The drop line shows where the block would land; each key's move is seen before the next key,
    // so a busy machine cannot drop it before the move has landed. Picked up, it would land where
    // it is (the line under b); each arrow is one place: up, between a and b (under a); up again,
    // above a; down, back between them; up, above a.
    const lineOn = (block: string, edge: 'top' | 'bottom') =>
      expect
        .poll(() =>
          page
            .locator(`[data-block-id="${block}"] [data-testid="drop-indicator"]`)
            .evaluateAll((nodes) => nodes.map((n) => ((n as HTMLElement).style.top ? 'top' : 'bottom'))),
        )
        .toEqual([edge]);
    await lineOn('b', 'bottom');
    await page.keyboard.press('ArrowUp');
    await lineOn('a', 'bottom');
    await page.keyboard.press('ArrowUp');
    await lineOn('a', 'top');
    await page.keyboard.press('ArrowDown');
    await lineOn('a', 'bottom');
    await page.keyboard.press('ArrowUp');
    await lineOn('a', 'top');
    await page.keyboard.press('Space');
    await expect.poll(ids).toEqual(['c', 'a', 'b']);
    // The focus stays in the builder (on the handle), where Ctrl+Z is the builder's undo.
    await page.keyboard.press('Control+z');
    await expect.poll(ids).toEqual(['a', 'b', 'c']);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(ids).toEqual(['c', 'a', 'b']);
    await waitSaved(page);
  });
});
