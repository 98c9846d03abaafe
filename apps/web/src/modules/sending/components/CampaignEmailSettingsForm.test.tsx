import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TCampaignEmailSettings, TCampaignEmailValues } from '@yado/contracts/sending';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { CampaignEmailSettingsForm } from './CampaignEmailSettingsForm';

const empty: TCampaignEmailValues = {
  senderEmail: null,
  senderName: null,
  replyTo: null,
  unsubscribedMessage: null,
  unsubscribedMessageEn: null,
  footerSenderName: null,
  footerPostalAddress: null,
  defaultLanguage: null,
  frequencyCapCount: null,
  frequencyCapDays: null,
  quietHoursStart: null,
  quietHoursEnd: null,
};

const hotelSettings: TCampaignEmailSettings = {
  hostLevel: 'hotel',
  hostName: 'さくらホテル 新宿',
  timeZone: 'Asia/Tokyo',
  own: empty,
  inherited: {
    ...empty,
    senderName: 'さくらホテルズ',
    unsubscribedMessage: '停止しました',
    frequencyCapCount: 3,
    frequencyCapDays: 7,
    quietHoursStart: '21:00',
    quietHoursEnd: '08:00',
    defaultLanguage: 'ja',
  },
  inheritedFrom: {
    senderName: { level: 'brand', hostName: 'さくらホテルズ' },
    unsubscribedMessage: { level: 'brand', hostName: 'さくらホテルズ' },
    frequencyCapCount: { level: 'default', hostName: null },
  },
  effective: { ...empty, senderName: 'さくらホテルズ', unsubscribedMessage: '停止しました', frequencyCapCount: 3 },
  senderDomain: null,
  canSend: false,
  problems: ['sending_settings_missing'],
};

describe('CampaignEmailSettingsForm', () => {
  it('shows what an empty field inherits and from where, and needs no value the brand already gives', async () => {
    const calls = mockFetch((method, url) => {
      if (url.pathname === '/v1/sending/settings' && method === 'GET') return { body: { data: hotelSettings } };
      if (url.pathname === '/v1/sending/settings' && method === 'PUT') return { body: { data: hotelSettings } };
      return undefined;
    });
    await renderWithProviders(<CampaignEmailSettingsForm />);
    const form = await screen.findByTestId('campaign-email-form');
    expect(within(form).getByText('Empty: uses さくらホテルズ (from さくらホテルズ)')).toBeTruthy();
    expect(within(form).getByText('From 1 to 100 · Empty: uses 3 (default)')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    // Nothing of its own: every value stays inherited.
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(JSON.parse(String(put?.init.body))).toEqual(empty);
  });

  it('says when the sender is not on a verified domain of the brand, and links to domain authentication', async () => {
    mockFetch((method, url) => {
      if (url.pathname === '/v1/sending/settings' && method === 'GET') return { body: { data: hotelSettings } };
      if (url.pathname === '/v1/sending/settings' && method === 'PUT') {
        const message = 'This sender email is not on a verified domain of your brand. Authenticate the domain first.';
        return {
          status: 400,
          body: {
            error: {
              code: 'validation_failed',
              message: 'x',
              fields: { senderEmail: { code: 'sender_domain_not_verified', message } },
            },
          },
        };
      }
      return undefined;
    });
    await renderWithProviders(<CampaignEmailSettingsForm />, { language: 'ja' });
    const form = await screen.findByTestId('campaign-email-form');
    fireEvent.change(form.querySelector('input[name="senderEmail"]') as HTMLInputElement, {
      target: { value: 'news@gmail.com' },
    });
    fireEvent.change(form.querySelector('input[name="quietHoursStart"]') as HTMLInputElement, {
      target: { value: '25:00' },
    });
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByText('21:00 のように HH:MM の形式で入力してください。')).toBeTruthy();
    fireEvent.change(form.querySelector('input[name="quietHoursStart"]') as HTMLInputElement, {
      target: { value: '22:00' },
    });
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    const refused = await within(form).findByTestId('sender-domain-refused');
    expect(within(refused).getByRole('link', { name: 'ドメイン認証へ' }).getAttribute('href')).toBe('/settings#domain');
  });

  it('has an optional English unsubscribed message, which falls back to the Japanese one, and saves it', async () => {
    const calls = mockFetch((method, url) => {
      if (url.pathname === '/v1/sending/settings' && method === 'GET') return { body: { data: hotelSettings } };
      if (url.pathname === '/v1/sending/settings' && method === 'PUT') return { body: { data: hotelSettings } };
      return undefined;
    });
    await renderWithProviders(<CampaignEmailSettingsForm />);
    const form = await screen.findByTestId('campaign-email-form');
    const english = within(form).getByLabelText('Unsubscribed message (English)');
    expect(within(form).getByLabelText('Unsubscribed message (Japanese)', { exact: false })).toBeTruthy();
    expect(
      within(form).getByText(
        'Optional. Shown to guests whose unsubscribe page is in English; when empty, they see the Japanese message.',
      ),
    ).toBeTruthy();
    fireEvent.change(english, { target: { value: '  You have been unsubscribed.  ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(JSON.parse(String(put?.init.body))).toEqual({
      ...empty,
      unsubscribedMessageEn: 'You have been unsubscribed.',
    });
  });

  it('labels both messages in Japanese and says what an empty English one inherits', async () => {
    mockFetch((method, url) =>
      url.pathname === '/v1/sending/settings' && method === 'GET'
        ? {
            body: {
              data: {
                ...hotelSettings,
                inherited: { ...hotelSettings.inherited, unsubscribedMessageEn: 'Unsubscribed.' },
                inheritedFrom: {
                  ...hotelSettings.inheritedFrom,
                  unsubscribedMessageEn: { level: 'brand', hostName: 'さくらホテルズ' },
                },
              },
            },
          }
        : undefined,
    );
    await renderWithProviders(<CampaignEmailSettingsForm />, { language: 'ja' });
    const form = await screen.findByTestId('campaign-email-form');
    expect(within(form).getByLabelText('配信停止メッセージ（英語）')).toBeTruthy();
    expect(within(form).getByLabelText('配信停止メッセージ（日本語）', { exact: false })).toBeTruthy();
    expect(
      within(form).getByText(
        '任意です。配信停止ページが英語で表示されるお客様に表示します。空欄のときは日本語のメッセージを表示します。 空欄の場合：Unsubscribed.（さくらホテルズ の設定）',
      ),
    ).toBeTruthy();
  });

  it('refuses a frequency cap out of range with the range, instead of changing the value to fit', async () => {
    const calls = mockFetch((method, url) =>
      url.pathname === '/v1/sending/settings' && method === 'GET' ? { body: { data: hotelSettings } } : undefined,
    );
    await renderWithProviders(<CampaignEmailSettingsForm />);
    const form = await screen.findByTestId('campaign-email-form');
    const count = form.querySelector('input[name="frequencyCapCount"]') as HTMLInputElement;
    const days = form.querySelector('input[name="frequencyCapDays"]') as HTMLInputElement;
    // The allowed range is shown before anything is typed.
    expect(within(form).getByText('From 1 to 100 · Empty: uses 3 (default)')).toBeTruthy();
    expect(within(form).getByText('From 1 to 365', { exact: false })).toBeTruthy();
    fireEvent.change(count, { target: { value: '0' } });
    fireEvent.blur(count);
    fireEvent.change(days, { target: { value: '400' } });
    fireEvent.blur(days);
    // What was typed stays as typed.
    expect(count.value).toBe('0');
    expect(days.value).toBe('400');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter a whole number from 1 to 100.')).toBeTruthy();
    expect(within(form).getByText('Enter a whole number from 1 to 365.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("shows the server's refusal of a value out of range in the user's language, with the range", async () => {
    mockFetch((method, url) => {
      if (url.pathname === '/v1/sending/settings' && method === 'GET') return { body: { data: hotelSettings } };
      if (url.pathname === '/v1/sending/settings' && method === 'PUT')
        return {
          status: 400,
          body: {
            error: {
              code: 'validation_failed',
              message: 'Please check the highlighted fields.',
              fields: {
                frequencyCapDays: {
                  code: 'frequency_cap_out_of_range',
                  message: 'Enter a whole number within the range shown.',
                },
                quietHoursEnd: { code: 'quiet_hours_time_invalid', message: 'Use the form HH:MM, for example 21:00.' },
              },
            },
          },
        };
      return undefined;
    });
    await renderWithProviders(<CampaignEmailSettingsForm />, { language: 'ja' });
    const form = await screen.findByTestId('campaign-email-form');
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByText('1〜365 の整数を入力してください。')).toBeTruthy();
    expect(within(form).getByText('21:00 のように HH:MM の形式で入力してください。')).toBeTruthy();
  });

  it('says under the quiet hours when an equal start and end mean there are none', async () => {
    mockFetch((method, url) =>
      url.pathname === '/v1/sending/settings' && method === 'GET' ? { body: { data: hotelSettings } } : undefined,
    );
    await renderWithProviders(<CampaignEmailSettingsForm />);
    const form = await screen.findByTestId('campaign-email-form');
    expect(within(form).queryByTestId('no-quiet-hours')).toBeNull();
    // The end is inherited (08:00): a start of 08:00 makes them equal.
    fireEvent.change(form.querySelector('input[name="quietHoursStart"]') as HTMLInputElement, {
      target: { value: '08:00' },
    });
    expect(within(form).getByTestId('no-quiet-hours').textContent).toBe(
      'The quiet hours start and end at the same time (08:00): there are no quiet hours, and campaigns are sent at any hour.',
    );
    fireEvent.change(form.querySelector('input[name="quietHoursStart"]') as HTMLInputElement, {
      target: { value: '21:00' },
    });
    expect(within(form).queryByTestId('no-quiet-hours')).toBeNull();
  });
});
