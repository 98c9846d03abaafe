import { screen } from '@testing-library/react';
import type { TCampaignEmailSettings, TCampaignEmailValues } from '@yado/contracts/sending';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { emptyDraft } from '../campaignDraft';
import { DetailsStep } from './DetailsStep';

const values: TCampaignEmailValues = {
  senderEmail: 'info@sakura-hotels.example.jp',
  senderName: 'さくらホテルズ',
  replyTo: null,
  unsubscribedMessage: null,
  unsubscribedMessageEn: null,
  footerSenderName: null,
  footerPostalAddress: null,
  defaultLanguage: 'ja',
  frequencyCapCount: 3,
  frequencyCapDays: 7,
  quietHoursStart: '21:00',
  quietHoursEnd: '08:00',
};
const settings = (canSend: boolean): TCampaignEmailSettings => ({
  hostLevel: 'brand',
  hostName: 'さくらホテルズ',
  timeZone: 'Asia/Tokyo',
  own: values,
  inherited: values,
  inheritedFrom: {},
  effective: canSend ? values : { ...values, senderEmail: null },
  senderDomain: canSend ? { domain: 'sakura-hotels.example.jp', state: 'verified' } : null,
  canSend,
  problems: canSend ? [] : ['sending_settings_missing'],
});
const noop = () => undefined;

describe('campaign details step', () => {
  it('shows the sender from the campaign email settings', async () => {
    await renderWithProviders(
      <DetailsStep
        draft={emptyDraft('Asia/Tokyo', null)}
        change={noop}
        problems={{}}
        readOnly={false}
        settings={settings(true)}
        canManageSettings
      />,
    );
    expect((await screen.findByTestId('campaign-sender')).textContent).toBe(
      'さくらホテルズ <info@sakura-hotels.example.jp>',
    );
    expect(screen.queryByTestId('campaign-settings-missing')).toBeNull();
  });

  it('says the settings are missing in the specification’s words, with a link for who may set them', async () => {
    const view = await renderWithProviders(
      <DetailsStep
        draft={emptyDraft('Asia/Tokyo', null)}
        change={noop}
        problems={{}}
        readOnly={false}
        settings={settings(false)}
        canManageSettings
      />,
    );
    const alert = await screen.findByTestId('campaign-settings-missing');
    expect(alert.textContent).toContain('campaign email settings missing (sender email and verified domains)');
    expect(alert.querySelector('a')?.getAttribute('href')).toBe('/settings#campaign-email');
    view.unmount();

    await renderWithProviders(
      <DetailsStep
        draft={emptyDraft('Asia/Tokyo', null)}
        change={noop}
        problems={{}}
        readOnly
        settings={null}
        canManageSettings={false}
      />,
    );
    expect((await screen.findByTestId('campaign-settings-missing')).querySelector('a')).toBeNull();
  });
});
