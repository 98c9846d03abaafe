import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TRelayWebhook } from '@yado/contracts/deliverability';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { ProtectionSettingsForm } from './ProtectionSettingsForm';
import { RelayWebhooksSection } from './RelayWebhooksSection';

const none = (provider: TRelayWebhook['provider']): TRelayWebhook => ({
  provider,
  id: null,
  url: null,
  secretHint: null,
  topicArn: null,
  updatedAt: null,
  lastEventAt: null,
  subscription: null,
});

describe('protection settings (issue 25)', () => {
  it('shows the thresholds with their bounds, refuses one out of range in the user’s language, and saves', async () => {
    let saved: unknown = null;
    const calls = mockFetch((method, url, init) => {
      if (url.pathname !== '/v1/deliverability/protection') return undefined;
      if (method === 'PUT') {
        saved = JSON.parse(String(init.body));
        return { body: { data: saved } };
      }
      return { body: { data: { minSent: 1000, hardBouncePct: 5, complaintPct: 0.3 } } };
    });
    await renderWithProviders(<ProtectionSettingsForm />, { language: 'ja' });
    const form = await screen.findByTestId('protection-form', {}, { timeout: 10_000 });
    const bounce = within(form).getByLabelText('一時停止するハードバウンス率（%）') as HTMLInputElement;
    expect(bounce.value).toBe('5');
    expect(form.textContent).toContain('1〜10');
    expect(screen.getByTestId('protection-warning-levels').textContent).toBe(
      'ハードバウンス率 2.5% または迷惑メール報告率 0.1% で警告します。',
    );
    fireEvent.change(bounce, { target: { value: '20' } });
    // Leaving the field keeps what was typed: refused on save with the range, never changed to fit.
    fireEvent.blur(bounce);
    expect(bounce.value).toBe('20');
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByText('表示されている範囲内の値を入力してください。 (1〜10)')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(bounce, { target: { value: '4' } });
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saved).toEqual({ minSent: 1000, hardBouncePct: 4, complaintPct: 0.3 }));
  }, 30_000);
});

const MAILGUN_KEY = 'key-0123456789abcdef0123456789abcdef';

describe('relay webhooks settings (issue 25)', () => {
  it('shows each provider, the address and the masked secret, the SES subscription, and saves a new secret', async () => {
    const hooks: TRelayWebhook[] = [
      {
        ...none('ses'),
        id: '6f1c2d3e-0000-4000-8000-0000000000a1',
        url: 'https://yado.example.jp/v1/public/relay-webhooks/ses/a1',
        updatedAt: '2026-11-26T00:00:00.000Z',
        subscription: 'pending',
      },
      {
        ...none('sendgrid'),
        id: '6f1c2d3e-0000-4000-8000-0000000000b2',
        url: 'https://yado.example.jp/v1/public/relay-webhooks/sendgrid/b2',
        secretHint: '…wxyz',
        updatedAt: '2026-11-26T00:00:00.000Z',
        lastEventAt: '2026-11-26T01:00:00.000Z',
      },
      none('mailgun'),
      none('postmark'),
    ];
    const puts: { provider: string; body: unknown }[] = [];
    mockFetch((method, url, init) => {
      if (url.pathname === '/v1/deliverability/relay-webhooks') return { body: { data: hooks } };
      const provider = url.pathname.split('/').pop() as TRelayWebhook['provider'];
      if (method === 'PUT') {
        puts.push({ provider, body: JSON.parse(String(init.body)) });
        return { body: { data: hooks.find((h) => h.provider === provider) } };
      }
      return undefined;
    });
    await renderWithProviders(<RelayWebhooksSection />);
    const rows = await screen.findAllByTestId('relay-webhook', {}, { timeout: 10_000 });
    expect(rows.map((r) => r.getAttribute('data-provider'))).toEqual(['ses', 'sendgrid', 'mailgun', 'postmark']);
    const [ses, sendgrid, mailgun] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(ses).getByTestId('relay-subscription').textContent).toBe('Waiting for SNS to confirm');
    expect(within(ses).getByTestId('relay-url').textContent).toBe(
      'https://yado.example.jp/v1/public/relay-webhooks/ses/a1',
    );
    // The secret itself is never shown: its last 4 characters only.
    expect(sendgrid.textContent).toContain('Saved secret: …wxyz. Leave empty to keep it.');
    expect(within(mailgun).getByTestId('relay-state').textContent).toBe('Not set up');

    // A provider without a secret cannot be set up; with one it is saved.
    fireEvent.click(within(mailgun).getByRole('button', { name: 'Set up' }));
    expect(await within(mailgun).findByText("Enter the provider's signing key or webhook password.")).toBeTruthy();
    fireEvent.change(within(mailgun).getByLabelText('HTTP webhook signing key'), { target: { value: MAILGUN_KEY } });
    fireEvent.click(within(mailgun).getByRole('button', { name: 'Set up' }));
    await waitFor(() => expect(puts).toEqual([{ provider: 'mailgun', body: { secret: MAILGUN_KEY } }]));
  }, 30_000);

  it('shows the server’s refusal of a malformed key or topic under its field, by its code, in the user’s language', async () => {
    // As the server answers (webhook-settings.ts): each field's code, the English text beside it.
    const refusal = (field: string, code: string) => ({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'Please check the highlighted fields.',
          fields: { [field]: { code, message: 'server text, not shown' } },
        },
      },
    });
    mockFetch((method, url) => {
      if (url.pathname === '/v1/deliverability/relay-webhooks')
        return { body: { data: [none('ses'), none('sendgrid'), none('mailgun'), none('postmark')] } };
      if (method !== 'PUT') return undefined;
      const provider = url.pathname.split('/').pop();
      if (provider === 'sendgrid') return refusal('secret', 'webhook_sendgrid_key_invalid');
      if (provider === 'mailgun') return refusal('secret', 'webhook_mailgun_key_invalid');
      if (provider === 'postmark') return refusal('secret', 'webhook_password_invalid');
      return refusal('topicArn', 'webhook_topic_invalid');
    });
    await renderWithProviders(<RelayWebhooksSection />);
    const [ses, sendgrid, mailgun, postmark] = (await screen.findAllByTestId(
      'relay-webhook',
      {},
      { timeout: 10_000 },
    )) as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    fireEvent.change(within(sendgrid).getByLabelText('Verification key'), { target: { value: 'garbage' } });
    fireEvent.click(within(sendgrid).getByRole('button', { name: 'Set up' }));
    expect(
      await within(sendgrid).findByText(
        "This isn't a SendGrid verification key. Paste the public key from SendGrid's Event Webhook settings: it begins with MFkw.",
      ),
    ).toBeTruthy();
    expect(sendgrid.textContent).not.toContain("Enter the provider's signing key or webhook password.");
    fireEvent.change(within(mailgun).getByLabelText('HTTP webhook signing key'), { target: { value: 'not a key' } });
    fireEvent.click(within(mailgun).getByRole('button', { name: 'Set up' }));
    expect(await within(mailgun).findByText(/^This isn't a Mailgun webhook signing key\./)).toBeTruthy();
    fireEvent.change(within(postmark).getByLabelText('Webhook password'), { target: { value: 'pass\u0007word' } });
    fireEvent.click(within(postmark).getByRole('button', { name: 'Set up' }));
    expect(
      await within(postmark).findByText('The webhook password cannot contain line breaks or other control characters.'),
    ).toBeTruthy();
    fireEvent.change(within(ses).getByLabelText('SNS topic ARN'), { target: { value: 'arn:aws:sqs:x' } });
    fireEvent.click(within(ses).getByRole('button', { name: 'Set up' }));
    expect(await within(ses).findByText('Enter an SNS topic ARN (arn:aws:sns:region:account:name).')).toBeTruthy();
  }, 30_000);

  it('names a malformed SendGrid key in Japanese too', async () => {
    mockFetch((method, url) => {
      if (url.pathname === '/v1/deliverability/relay-webhooks')
        return { body: { data: [none('ses'), none('sendgrid'), none('mailgun'), none('postmark')] } };
      if (method !== 'PUT') return undefined;
      return {
        status: 400,
        body: {
          error: {
            code: 'validation_failed',
            message: 'Please check the highlighted fields.',
            fields: { secret: { code: 'webhook_sendgrid_key_invalid', message: 'server text' } },
          },
        },
      };
    });
    await renderWithProviders(<RelayWebhooksSection />, { language: 'ja' });
    const [, sendgrid] = (await screen.findAllByTestId('relay-webhook', {}, { timeout: 10_000 })) as [
      HTMLElement,
      HTMLElement,
    ];
    fireEvent.change(within(sendgrid).getByLabelText('検証キー'), { target: { value: 'garbage' } });
    fireEvent.click(within(sendgrid).getByRole('button', { name: '設定する' }));
    expect(
      await within(sendgrid).findByText(
        'SendGrid の検証キーではありません。SendGrid の Event Webhook 設定にある公開鍵（MFkw で始まる文字列）を貼り付けてください。',
      ),
    ).toBeTruthy();
  }, 30_000);

  it('shows the address its help speaks of above the help, and, before the set-up, where the address will be', async () => {
    const hooks: TRelayWebhook[] = [
      {
        ...none('ses'),
        id: '6f1c2d3e-0000-4000-8000-0000000000a1',
        url: 'https://yado.example.jp/v1/public/relay-webhooks/ses/a1',
        updatedAt: '2026-11-26T00:00:00.000Z',
        subscription: 'pending',
      },
      none('sendgrid'),
      none('mailgun'),
      none('postmark'),
    ];
    mockFetch((_method, url) =>
      url.pathname === '/v1/deliverability/relay-webhooks' ? { body: { data: hooks } } : undefined,
    );
    await renderWithProviders(<RelayWebhooksSection />);
    const [ses, , mailgun] = (await screen.findAllByTestId('relay-webhook', {}, { timeout: 10_000 })) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    // "Subscribe the address to the SNS topic …": the address is there, before the words that refer to it.
    const address = within(ses).getByTestId('relay-url');
    const help = within(ses).getByTestId('relay-help');
    expect(help.textContent).toContain('the address');
    expect(address.compareDocumentPosition(help) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(ses).queryByTestId('relay-url-pending')).toBeNull();
    // Not set up: no address yet, and the card says so where the address will be.
    expect(within(mailgun).queryByTestId('relay-url')).toBeNull();
    expect(within(mailgun).getByTestId('relay-help').textContent).toContain('the address');
    expect(within(mailgun).getByTestId('relay-url-pending').textContent).toBe(
      'Set up this webhook to get the address to give Mailgun.',
    );
  }, 30_000);
});
