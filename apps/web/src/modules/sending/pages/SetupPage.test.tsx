import { screen, within } from '@testing-library/react';
import type { TCampaignEmailValues, TSetupOverview } from '@yado/contracts/sending';
import type { THostLevel, TRole } from '@yado/contracts/tenancy';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { SetupPage } from './SetupPage';

const values = (over: Partial<TCampaignEmailValues> = {}): TCampaignEmailValues => ({
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
  ...over,
});

const overview: TSetupOverview = {
  settings: {
    hostLevel: 'hotel',
    hostName: 'Sakura Hotel Kyoto',
    timeZone: 'Asia/Tokyo',
    own: values(),
    inherited: values({ senderName: 'さくらホテルズ' }),
    inheritedFrom: {},
    effective: values({ senderName: 'さくらホテルズ' }),
    senderDomain: null,
    canSend: false,
    problems: ['sending_settings_missing'],
  },
  domains: [],
  checklist: [
    { item: 'sender', status: 'todo' },
    { item: 'verified_domain', status: 'todo' },
    { item: 'segment', status: 'todo' },
    { item: 'template', status: 'todo' },
  ],
};

async function renderAs(level: THostLevel, role: TRole, language: 'en' | 'ja' = 'en') {
  mockFetch((_method, url) => (url.pathname === '/v1/sending/setup' ? { body: { data: overview } } : undefined));
  await renderWithProviders(<SetupPage />, {
    path: '/setup',
    language,
    queryClient: signedInClient(profileFixture(level, role)),
  });
  await screen.findByTestId('setup-checklist');
}

/** Each step as the user sees it: a link to where it is done, or whom to ask. */
const steps = () =>
  (['sender', 'verified_domain', 'segment', 'template'] as const).map((item) => {
    const row = screen.getByTestId(`checklist-${item}`);
    return {
      item,
      link: within(row).queryByRole('link')?.getAttribute('href') ?? null,
      ask: within(row).queryByTestId(`checklist-${item}-ask`)?.textContent ?? null,
    };
  });

describe('SetupPage', () => {
  it('tells hotel staff whom to ask for the settings they cannot open, and links what they can do', async () => {
    await renderAs('hotel', 'staff');
    expect(steps()).toEqual([
      { item: 'sender', link: null, ask: 'Ask a Hotel Admin to do this.' },
      { item: 'verified_domain', link: null, ask: 'Ask a Brand Admin to do this.' },
      { item: 'segment', link: '/segmentation', ask: null },
      { item: 'template', link: '/templates', ask: null },
    ]);
    // Nor do the sender and domain cards lead to settings the staff cannot open.
    expect(within(screen.getByTestId('setup-sender')).queryByRole('link')).toBeNull();
    expect(within(screen.getByTestId('setup-domains')).queryByRole('link')).toBeNull();
  });

  it('tells a hotel viewer whom to ask for every step, in Japanese too', async () => {
    await renderAs('hotel', 'viewer', 'ja');
    expect(steps()).toEqual([
      { item: 'sender', link: null, ask: 'ホテル管理者に依頼してください。' },
      { item: 'verified_domain', link: null, ask: 'ブランド管理者に依頼してください。' },
      { item: 'segment', link: null, ask: 'ホテル管理者またはホテルスタッフに依頼してください。' },
      { item: 'template', link: null, ask: 'ホテル管理者またはホテルスタッフに依頼してください。' },
    ]);
  });

  it("links a hotel admin to the sender settings, and to the brand's admin for the domain", async () => {
    await renderAs('hotel', 'admin');
    expect(steps()[0]).toEqual({ item: 'sender', link: '/settings#campaign-email', ask: null });
    expect(steps()[1]).toEqual({ item: 'verified_domain', link: null, ask: 'Ask a Brand Admin to do this.' });
    expect(within(screen.getByTestId('setup-sender')).getByRole('link').getAttribute('href')).toBe(
      '/settings#campaign-email',
    );
    expect(within(screen.getByTestId('setup-domains')).getByRole('link').getAttribute('href')).toBe('/settings#domain');
  });

  it('links a brand admin to every step', async () => {
    await renderAs('brand', 'admin');
    expect(steps().map((s) => [s.link, s.ask])).toEqual([
      ['/settings#campaign-email', null],
      ['/settings#domain', null],
      ['/segmentation', null],
      ['/templates', null],
    ]);
  });
});
