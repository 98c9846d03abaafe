import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS } from '../support/browser';
import { apiCall, apiToken } from '../support/api';

const HARBOR_ADMIN = 'harbor.admin@demo.test';
const KINDS = ['spf', 'dkim', 'dmarc', 'cname', 'ownership'] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Clicks a copy button and reads what it put on the clipboard. */
async function copied(page: Page, scope: Locator, testId: string): Promise<string> {
  await scope.getByTestId(testId).click();
  return page.evaluate(() => navigator.clipboard.readText());
}

describe.each(LANGUAGES)('sending identity (%s)', (language) => {
  const t = TEXTS[language];
  // A domain of Harbor View Hotels per language run, typed the way people do (capitals, final dot).
  const domain = `mail-${language}-${Date.now().toString(36)}.harbor-e2e.jp`;

  it('adds a domain, copies its records, publishes them, waits out the countdown and sees each record verified', async () => {
    const { context, page } = await openPage(browser, language);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await signIn(page, language, HARBOR_ADMIN);
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/settings#domain');
    const form = page.getByTestId('domain-add-form');
    await form.waitFor();

    await form.locator('input[name="domain"]').fill('192.168.0.1');
    await form.getByRole('button', { name: t.sending.domains.add }).click();
    await form.getByText(t.errors.domain_invalid).waitFor();

    await form.locator('input[name="domain"]').fill(`${domain.toUpperCase()}.`);
    await form.getByRole('button', { name: t.sending.domains.add }).click();
    await page.getByTestId('snackbar').getByText(t.sending.domains.added).waitFor();
    const card = page.getByTestId(`domain-${domain}`);
    await card.waitFor();
    expect(await card.getAttribute('data-state')).toBe('unverified');

    // The button waits for the countdown, which is shown.
    const verify = card.getByTestId('verify-dns');
    expect(await verify.isDisabled()).toBe(true);
    expect(await card.getByTestId('verify-countdown').textContent()).toMatch(/0:0\d/);

    // Play the hotel's DNS administrator: publish exactly what the copy buttons gave.
    const grand = await apiToken('grand@demo.test');
    for (const kind of KINDS) {
      const name = await copied(page, card, `copy-name-${kind}`);
      const value = await copied(page, card, `copy-value-${kind}`);
      expect(name.endsWith(domain)).toBe(true);
      const type = kind === 'cname' ? 'CNAME' : 'TXT';
      const published = await apiCall('PUT', '/v1/dev/dns', { token: grand, body: { name, type, values: [value] } });
      expect(published.status).toBe(200);
    }
    await screenshot(page, `domain-records-${language}`);

    await verify.and(page.locator(':enabled')).waitFor({ timeout: 15_000 });
    await verify.click();
    await page.getByTestId('snackbar').getByText(t.sending.domains.verified).waitFor();
    await card.and(page.locator('[data-state="verified"]')).waitFor();
    for (const kind of KINDS)
      expect(await card.getByTestId(`record-${kind}`).getAttribute('data-state')).toBe('verified');
    await card.getByText(t.sending.state.verified).first().waitFor();
    // Each try starts the countdown again.
    await card.getByTestId('verify-countdown').waitFor();
    await screenshot(page, `domain-verified-${language}`);
    await context.close();
  });

  it('sets the sender on the verified domain and sees the Setup checklist advance', async () => {
    // Arrange: Harbor View Hotels has no sender email yet (another run may have set one).
    const token = await apiToken(HARBOR_ADMIN);
    const current = await apiCall<{ own: Record<string, unknown> }>('GET', '/v1/sending/settings', { token });
    await apiCall('PUT', '/v1/sending/settings', { token, body: { ...current.data.own, senderEmail: null } });

    const { context, page } = await openPage(browser, language);
    await signIn(page, language, HARBOR_ADMIN);
    await page.waitForURL((url) => url.pathname === '/');
    // The sidebar's Setup entry sits with Campaign and Templates (the automation flag is on).
    await page.getByRole('button', { name: t.nav.email_marketing, exact: true }).click();
    await page.getByRole('link', { name: t.nav.setup, exact: true }).click();
    await page.waitForURL('**/setup');
    const checklist = page.getByTestId('setup-checklist');
    await checklist.waitFor();
    expect(await checklist.getByTestId('checklist-sender').getAttribute('data-status')).toBe('todo');
    expect(await checklist.getByTestId('checklist-verified_domain').getAttribute('data-status')).toBe('todo');
    // Harbor View Hotels has made no segment or template yet.
    expect(await checklist.getByTestId('checklist-segment').getAttribute('data-status')).toBe('todo');
    expect(await checklist.getByTestId('checklist-template').getAttribute('data-status')).toBe('todo');

    await checklist.getByRole('link', { name: t.sending.setup.items.sender }).click();
    await page.waitForURL('**/settings#campaign-email');
    const form = page.getByTestId('campaign-email-form');
    await form.waitFor();
    // Empty fields say what they inherit: the frequency cap is the product's default.
    await form.getByText(t.sending.settings.default_value.replace('{{value}}', '3')).waitFor();
    await form.locator('input[name="senderEmail"]').fill('news@unknown-domain.jp');
    await form.getByRole('button', { name: t.common.save }).click();
    await form.getByText(t.errors.sender_domain_not_verified).waitFor();
    await form.locator('input[name="senderEmail"]').fill(`news@${domain}`);
    await form.getByRole('button', { name: t.common.save }).click();
    await page.getByTestId('snackbar').getByText(t.sending.settings.saved).waitFor();

    await page.goto('/setup');
    await checklist.waitFor();
    await checklist.getByTestId('checklist-sender').and(page.locator('[data-status="done"]')).waitFor();
    expect(await checklist.getByTestId('checklist-verified_domain').getAttribute('data-status')).toBe('done');
    expect(await page.getByTestId('setup-sender-email').textContent()).toContain(`news@${domain}`);
    await page.getByTestId(`setup-domain-${domain}`).getByText(t.sending.state.verified).waitFor();
    await screenshot(page, `setup-${language}`);
    await context.close();
  });
});
