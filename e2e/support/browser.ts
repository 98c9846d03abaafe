import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
} from 'playwright-core';
import { inject, onTestFailed } from 'vitest';
import { ALL_TEXTS } from '../../apps/web/src/i18n/allTexts';

export const LANGUAGES = ['ja', 'en'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const TEXTS = ALL_TEXTS;
export const DEMO_PASSWORD = 'demo-pass-1';

const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

/** The product of the worker this spec file runs in (support/global-setup.ts starts one per worker). */
export function baseUrl(): string {
  const urls = inject('baseUrls');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return urls[(worker - 1) % urls.length] ?? urls[0]!;
}

/**
 * Chromium features the specs switch off. Chromium honours only the last `--disable-features` it
 * is given and Playwright passes its own list first, so this list carries Playwright's forward
 * (`support/chromium-flags.e2e.ts` fails when a Playwright upgrade adds one that is missing here).
 * Ours: the omnibox's two popups, web pages of their own since Chromium 156 that every new window
 * (every browser context) loads in a renderer of its own, never seen headless: without them
 * Chromium's CPU in a sign-in flow fell by 28 to 44% (docs/benchmarks.md, "ci", 2026-12-02).
 */
export const DISABLED_FEATURES = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  // Playwright 1.65's own.
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
}

/**
 * A fresh browser profile (no cookies, no storage) for a spec. Its browser stands for a system that
 * asks for less motion (`prefers-reduced-motion: reduce`), which the console honours (Mantine's
 * `respectReducedMotion`, our own CSS alike): a modal, a drawer or a dropdown shows at its place in
 * its first frame. With the motion, a modal enters 30 px above its place and slides down from the
 * next frame on, and Playwright, which presses a button once it has stood still for two frames, could
 * press there and release after the slide had carried the button away: nothing clicked (the
 * suppression spec's lift at cda3762). `reducedMotion: 'no-preference'` for a spec that checks the
 * motion itself.
 */
export function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ reducedMotion: 'reduce', ...options });
}

export interface TPageOptions {
  /** `reduce` by default (see newContext). */
  reducedMotion?: 'reduce' | 'no-preference';
  /** The browser's time zone (an IANA name); by default the machine's. */
  timeZone?: string;
}

/** A page in a fresh browser profile (newContext) that starts in `language`. */
export async function openPage(
  browser: Browser,
  language: TLanguage,
  options: TPageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, {
    baseURL: baseUrl(),
    viewport: { width: 1366, height: 860 },
    locale: language === 'ja' ? 'ja-JP' : 'en-US',
    ...(options.reducedMotion ? { reducedMotion: options.reducedMotion } : {}),
    ...(options.timeZone ? { timezoneId: options.timeZone } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  reportRequestsOnFailure(page);
  // `lang` in the query overrides and is stored (spec section 1).
  await page.goto(`/login?lang=${language}`);
  return { context, page };
}

/** The requests to the product a failure report names: the last this many answered. */
const ANSWERED_KEPT = 20;

/**
 * Should the test that opened `page` fail, says what the page was waiting for when it did: its
 * requests to the product (the API's and the console's own files, a lazy page's chunk say) still
 * unanswered, and for how long, and the last ones answered (status, time). A wait that times out
 * (a toast, a navigation) then tells a request the server never answered from one the console
 * never sent. Paths only: a query may carry what a spec searched for. Nothing here awaits
 * Playwright, so a page closed meanwhile leaves nothing to reject.
 */
function reportRequestsOnFailure(page: Page): void {
  const origin = new URL(baseUrl()).origin;
  const pathOf = (request: Request) => new URL(request.url()).pathname;
  const asked = new Map<Request, number>();
  const statuses = new Map<Request, number>();
  const answered: string[] = [];
  const settle = (request: Request, outcome: string) => {
    const at = asked.get(request);
    if (at === undefined) return;
    asked.delete(request);
    statuses.delete(request);
    answered.push(`${request.method()} ${pathOf(request)} ${outcome} in ${Date.now() - at} ms`);
    if (answered.length > ANSWERED_KEPT) answered.shift();
  };
  page.on('request', (request) => {
    if (new URL(request.url()).origin === origin) asked.set(request, Date.now());
  });
  page.on('response', (response) => statuses.set(response.request(), response.status()));
  page.on('requestfinished', (request) => settle(request, String(statuses.get(request) ?? 'no answer')));
  page.on('requestfailed', (request) => settle(request, `failed (${request.failure()?.errorText ?? 'unknown'})`));
  onTestFailed(() => {
    const now = Date.now();
    const waiting = [...asked].map(([request, at]) => `${request.method()} ${pathOf(request)} for ${now - at} ms`);
    console.error(
      `[requests of ${new URL(page.url()).pathname}] unanswered: ${waiting.join('; ') || 'none'}\n` +
        `  last answered: ${answered.join('; ') || 'none'}`,
    );
  });
}

export async function signIn(page: Page, language: TLanguage, email: string, password = DEMO_PASSWORD): Promise<void> {
  const t = TEXTS[language];
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel(t.auth.fields.email, { exact: false }).first().fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: t.auth.login.submit, exact: true }).click();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** The text of the toast currently shown. */
export async function toastText(page: Page): Promise<string> {
  const toast = page.getByTestId('snackbar').last();
  await toast.waitFor({ state: 'visible', timeout: 10_000 });
  return (await toast.textContent()) ?? '';
}

/** Reads the embedded SMTP sink as the granduser (DESIGN section 6, embedded mode only). */
export async function readOutbox(to: string): Promise<{ subject: string; text: string; html: string | null }[]> {
  const login = await fetch(`${baseUrl()}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'grand@demo.test', password: DEMO_PASSWORD }),
  });
  const { data } = (await login.json()) as { data: { accessToken: string } };
  const response = await fetch(`${baseUrl()}/v1/dev/outbox?to=${encodeURIComponent(to)}&limit=10`, {
    headers: { authorization: `Bearer ${data.accessToken}` },
  });
  if (!response.ok) throw new Error(`outbox answered ${response.status}`);
  return ((await response.json()) as { data: { subject: string; text: string; html: string | null }[] }).data;
}
