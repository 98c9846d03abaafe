import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, signIn, TEXTS, type TLanguage } from '../support/browser';

// Issue 25 in the console: the brand admin sets up a relay webhook and types what is not the
// provider's secret. Each field says what is wrong with it, in the user's language: a malformed
// SendGrid key is not taken for an empty field, a topic that is no SNS topic ARN says so, and
// nothing is saved.
const ADMIN = 'brand.admin@demo.test';

let browser: Browser;
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiToken(ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

describe.each(LANGUAGES)('relay webhook settings (%s)', (language: TLanguage) => {
  it('names a malformed SendGrid key, Mailgun key and SNS topic under their fields, and saves none', async () => {
    const t = TEXTS[language];
    const before = await apiCall<{ provider: string; id: string | null }[]>(
      'GET',
      '/v1/deliverability/relay-webhooks',
      {
        token: admin,
      },
    );
    const { context, page } = await openPage(browser, language);
    try {
      await signIn(page, language, ADMIN);
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await page.goto('/settings#relay-webhooks');
      const card = (provider: string) => page.locator(`[data-testid="relay-webhook"][data-provider="${provider}"]`);
      await card('sendgrid').waitFor();
      // Set up or not, each card's form is saved by its one submit button ("Set up" or "Save").

      const sendgrid = card('sendgrid');
      await sendgrid.getByLabel(t.sending.relay.secret.sendgrid).fill('garbage');
      await sendgrid.locator('button[type="submit"]').click();
      await sendgrid.getByText(t.errors.webhook_sendgrid_key_invalid).waitFor();
      expect(await sendgrid.textContent()).not.toContain(t.errors.webhook_secret_required);

      const mailgun = card('mailgun');
      await mailgun.getByLabel(t.sending.relay.secret.mailgun).fill('my signing key');
      await mailgun.locator('button[type="submit"]').click();
      await mailgun.getByText(t.errors.webhook_mailgun_key_invalid).waitFor();

      const ses = card('ses');
      await ses.getByLabel(t.sending.relay.topic_arn).fill('yado-ses-events');
      await ses.locator('button[type="submit"]').click();
      await ses.getByText(t.errors.webhook_topic_invalid).waitFor();
    } finally {
      await context.close();
    }
    const after = await apiCall('GET', '/v1/deliverability/relay-webhooks', { token: admin });
    expect(after.data).toEqual(before.data);
  });
});
