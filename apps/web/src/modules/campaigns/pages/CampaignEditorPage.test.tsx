import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TCampaignEmailValues } from '@yado/contracts/sending';
import { describe, expect, it } from 'vitest';
import { campaignFixture, profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { CampaignEditorPage } from './CampaignEditorPage';

const values: TCampaignEmailValues = {
  senderEmail: 'info@sakura-hotels.example.jp',
  senderName: 'さくらホテルズ',
  replyTo: null,
  unsubscribedMessage: 'x',
  unsubscribedMessageEn: null,
  footerSenderName: 'さくらホテルズ',
  footerPostalAddress: '東京都',
  defaultLanguage: 'ja',
  frequencyCapCount: 3,
  frequencyCapDays: 7,
  quietHoursStart: '21:00',
  quietHoursEnd: '08:00',
};
const setup = {
  settings: {
    hostLevel: 'brand',
    hostName: 'さくらホテルズ',
    timeZone: 'Asia/Tokyo',
    own: values,
    inherited: values,
    inheritedFrom: {},
    effective: values,
    senderDomain: { domain: 'sakura-hotels.example.jp', state: 'verified' },
    canSend: true,
    problems: [],
  },
  domains: [],
  checklist: [],
};
const campaign = (body: { name: string; subject: string }, updatedAt: string) =>
  campaignFixture({
    name: body.name,
    subject: body.subject,
    senderEmail: values.senderEmail,
    hostId: 'brand',
    updatedAt,
  });

describe('the campaign editor', () => {
  it('saves a new campaign as a draft a moment after typing, keeps a step’s choices when the user goes back, and asks before leaving unsaved', async () => {
    const saves: { method: string; name: string; subject: string; updatedAt?: string }[] = [];
    let stored = '2026-11-21T00:00:00.000Z';
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      const isCreate = method === 'POST' && url.pathname === '/v1/campaigns';
      const isUpdate = method === 'PUT' && url.pathname === '/v1/campaigns/c1';
      if (!isCreate && !isUpdate) return undefined;
      const body = JSON.parse(String(init.body)) as { name: string; subject: string; updatedAt?: string };
      saves.push({ method, name: body.name, subject: body.subject, updatedAt: body.updatedAt });
      stored = new Date(Date.parse(stored) + 60_000).toISOString();
      return { body: { data: campaign(body, stored) } };
    });
    const { container, router } = await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/new',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      routes: [{ path: '/campaign', element: <div data-testid="campaign-list" /> }],
    });
    const input = async (name: string) => {
      await waitFor(() => expect(container.querySelector(`input[name="${name}"]`)).not.toBeNull());
      return container.querySelector(`input[name="${name}"]`) as HTMLInputElement;
    };
    const status = () => screen.getByTestId('save-status').getAttribute('data-state');

    // Nothing saved yet, and not called saved.
    await input('name');
    expect(status()).toBe('new');
    expect(screen.getByTestId('save-status').textContent).toBe('Not saved yet');
    // A subject before a name: not saved, and the page says why.
    fireEvent.change(await input('subject'), { target: { value: 'Autumn in Kyoto' } });
    expect(status()).toBe('unsaved');
    expect(screen.getByTestId('save-status-waiting').textContent).toBe('Saved once it has a name');
    fireEvent.change(await input('name'), { target: { value: 'Autumn stay' } });
    await waitFor(() => expect(status()).toBe('saved'), { timeout: 10_000 });
    expect(screen.queryByTestId('save-status-waiting')).toBeNull();
    // One creation for both fields, nothing pressed.
    expect(saves).toEqual([{ method: 'POST', name: 'Autumn stay', subject: 'Autumn in Kyoto', updatedAt: undefined }]);

    // On to the recipients, then back: what the details step holds is still there.
    fireEvent.click(screen.getByTestId('campaign-next'));
    await screen.findByTestId('campaign-segments');
    fireEvent.click(screen.getByTestId('campaign-back'));
    expect((await input('subject')).value).toBe('Autumn in Kyoto');

    // A change, and the link back at once: the editor asks; staying keeps the page and the change.
    fireEvent.change(await input('subject'), { target: { value: 'Autumn in Kyoto, for you' } });
    fireEvent.click(screen.getByRole('link', { name: 'Back to the campaign list' }));
    await screen.findByTestId('leave-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/campaign/new');
    await waitFor(() => expect(status()).toBe('saved'), { timeout: 10_000 });
    // Saved on the campaign just created, with the version its creation returned.
    expect(saves.at(-1)).toEqual({
      method: 'PUT',
      name: 'Autumn stay',
      subject: 'Autumn in Kyoto, for you',
      updatedAt: '2026-11-21T00:01:00.000Z',
    });
    fireEvent.click(screen.getByRole('link', { name: 'Back to the campaign list' }));
    await screen.findByTestId('campaign-list');
  }, 30_000);

  it('saves a scheduled campaign’s choices as the user goes, while what it sends is complete, and asks before leaving unsaved', async () => {
    const saves: { name: string; subject: string; updatedAt?: string }[] = [];
    let stored = '2026-11-21T00:00:00.000Z';
    const scheduled = (subject: string, updatedAt: string) =>
      campaignFixture({
        status: 'scheduled',
        subject,
        senderEmail: values.senderEmail,
        recipients: { segmentIds: ['s1'], excludeSegmentIds: [] },
        templateId: 't1',
        templateName: '冬',
        schedule: { kind: 'at', localTime: '2099-01-10T09:00', timeZone: 'Asia/Tokyo' },
        sendAt: '2099-01-10T00:00:00.000Z',
        hostId: 'brand',
        updatedAt,
      });
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1')
        return { body: { data: scheduled('冬の特別プラン', stored) } };
      if (method !== 'PUT' || url.pathname !== '/v1/campaigns/c1') return undefined;
      const body = JSON.parse(String(init.body)) as { name: string; subject: string; updatedAt?: string };
      saves.push({ name: body.name, subject: body.subject, updatedAt: body.updatedAt });
      stored = new Date(Date.parse(stored) + 60_000).toISOString();
      return { body: { data: scheduled(body.subject, stored) } };
    });
    const { container } = await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const subject = async () => {
      await waitFor(() => expect(container.querySelector('input[name="subject"]')).not.toBeNull(), { timeout: 10_000 });
      return container.querySelector('input[name="subject"]') as HTMLInputElement;
    };
    const status = () => screen.getByTestId('save-status').getAttribute('data-state');

    // A subject cleared while typing is not saved onto a scheduled campaign; the leave guard holds it.
    fireEvent.change(await subject(), { target: { value: '' } });
    expect(status()).toBe('unsaved');
    fireEvent.click(screen.getByRole('link', { name: 'Back to the campaign list' }));
    await screen.findByTestId('leave-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(saves).toEqual([]);
    // Typed again: saved a moment later, nothing pressed, with the version it was opened at.
    fireEvent.change(await subject(), { target: { value: '冬の特別プラン、ご家族で' } });
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 10_000 });
    expect(saves[0]).toEqual({
      name: '冬のご案内',
      subject: '冬の特別プラン、ご家族で',
      updatedAt: '2026-11-21T00:00:00.000Z',
    });
    await waitFor(() => expect(status()).toBe('saved'), { timeout: 10_000 });
  }, 30_000);

  it('builds an A/B test beside A, warns about opens, switches a holdout on at 10%, and autosaves it with the draft', async () => {
    const saves: { experiment: unknown }[] = [];
    const draft = campaignFixture({
      subject: '冬の特別プラン',
      preHeader: '今だけ',
      senderEmail: values.senderEmail,
      templateId: null,
      hostId: 'brand',
    });
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1') return { body: { data: draft } };
      if (method === 'GET' && url.pathname === '/v1/templates')
        return { body: { data: { items: [], total: 0, page: 1, pageSize: 20 } } };
      if (method !== 'PUT' || url.pathname !== '/v1/campaigns/c1') return undefined;
      const body = JSON.parse(String(init.body)) as { experiment: unknown };
      saves.push({ experiment: body.experiment });
      return { body: { data: { ...draft, updatedAt: new Date().toISOString() } } };
    });
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=content',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    fireEvent.click(await screen.findByTestId('experiment-add', {}, { timeout: 15_000 }));
    // B starts as a copy of A's texts, beside A, each previewed with the inbox line as sent.
    const subjectB = (await screen.findByTestId('variant-B-subject')) as HTMLInputElement;
    expect(subjectB.value).toBe('冬の特別プラン');
    expect(screen.getByTestId('variant-A-inbox-subject').textContent).toBe('冬の特別プラン');
    expect(screen.getByTestId('variant-A').textContent).toContain('さくらホテルズ');
    fireEvent.change(subjectB, { target: { value: '冬だけの特別料金' } });
    expect(screen.getByTestId('variant-B-inbox-subject').textContent).toBe('冬だけの特別料金');
    fireEvent.change(screen.getByTestId('variant-B-sender-name'), { target: { value: 'さくらホテル 新宿' } });
    expect(screen.getByTestId('experiment-split').textContent).toBe(
      '20% of the audience is split evenly among the 2 variants (about 10% each). After 4 h the winner goes to the rest.',
    );
    // Opens only with the warning about machine opens.
    expect(screen.queryByTestId('experiment-opens-warning')).toBeNull();
    fireEvent.click(screen.getByText('Opens (human only)'));
    expect((await screen.findByTestId('experiment-opens-warning')).textContent).toContain(
      'Apple Mail Privacy Protection',
    );
    fireEvent.click(screen.getByTestId('holdout-switch'));
    expect((screen.getByTestId('holdout-percent') as HTMLInputElement).value).toBe('10%');
    await waitFor(
      () =>
        expect(saves.at(-1)?.experiment).toEqual({
          variants: [
            { subject: '冬だけの特別料金', preHeader: '今だけ', senderName: 'さくらホテル 新宿', templateId: null },
          ],
          testPercent: 20,
          waitHours: 4,
          metric: 'opens',
          holdoutPercent: 10,
        }),
      { timeout: 10_000 },
    );
    // A variant without a subject keeps the campaign from going on.
    fireEvent.change(subjectB, { target: { value: ' ' } });
    fireEvent.click(screen.getByTestId('campaign-next'));
    expect(await screen.findByText('Each variant of the A/B test needs a subject.')).toBeTruthy();
  }, 30_000);

  it('shows the A/B test of a campaign being sent, locked', async () => {
    const sending = campaignFixture({
      status: 'pending',
      senderEmail: values.senderEmail,
      hostId: 'brand',
      experiment: {
        ...campaignFixture().experiment,
        variants: [
          {
            key: 'B',
            subject: '冬だけの特別料金',
            preHeader: '',
            senderName: null,
            templateId: null,
            templateName: null,
          },
        ],
        phase: 'testing',
      },
    });
    mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1') return { body: { data: sending } };
      return undefined;
    });
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=content',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const subjectB = (await screen.findByTestId('variant-B-subject', {}, { timeout: 15_000 })) as HTMLInputElement;
    expect(subjectB.value).toBe('冬だけの特別料金');
    expect(subjectB.readOnly).toBe(true);
    expect(screen.queryByTestId('experiment-add')).toBeNull();
    expect((screen.getByTestId('holdout-switch') as HTMLInputElement).disabled).toBe(true);
  }, 30_000);
});
