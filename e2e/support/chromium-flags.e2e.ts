import { readdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISABLED_FEATURES, launchBrowser } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The arguments of the Chromium browser process this test process started (Linux `/proc`). */
function browserProcessArgs(): string[] {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean),
  );
  const found = children
    .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean))
    .filter((args) => args.some((a) => a.startsWith('--remote-debugging-pipe')));
  expect(found, 'one Chromium started by this test process').toHaveLength(1);
  return found[0]!;
}

describe('the specs’ Chromium', () => {
  it('keeps every feature Playwright switches off, since Chromium reads only the last list', () => {
    const lists = browserProcessArgs()
      .filter((a) => a.startsWith('--disable-features='))
      .map((a) => a.slice('--disable-features='.length).split(','));
    expect(lists.length).toBeGreaterThan(1);
    expect(lists.at(-1)).toEqual(DISABLED_FEATURES);
    for (const earlier of lists.slice(0, -1)) expect(DISABLED_FEATURES).toEqual(expect.arrayContaining(earlier));
  });

  it('opens a browser context without the omnibox popups’ pages', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('about:blank');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
    await cdp.detach();
    await context.close();
    expect(targetInfos.map((t) => t.url)).toContain('about:blank');
    expect(targetInfos.filter((t) => t.url.startsWith('chrome://omnibox-popup'))).toEqual([]);
  });
});
