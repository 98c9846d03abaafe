import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TCampaign, TSchedule } from '@yado/contracts/campaigns';
import type { TCampaignEmailValues } from '@yado/contracts/sending';
import { describe, expect, it } from 'vitest';
import { campaignFixture, profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { currentSnackbars } from '../../ui/components/snackbarStore';
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
  it('saves a new campaign as a draft a moment after typing, keeps a step’s choices when the user goes back, and saves a change not saved yet before leaving', async () => {
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

    // A change, and the link back at once: the change is saved first (on the campaign just
    // created, with the version its creation returned), then the editor is left; nothing asks, as
    // nothing is lost.
    fireEvent.change(await input('subject'), { target: { value: 'Autumn in Kyoto, for you' } });
    fireEvent.click(screen.getByRole('link', { name: 'Back to the campaign list' }));
    await screen.findByTestId('campaign-list', {}, { timeout: 10_000 });
    expect(saves.at(-1)).toEqual({
      method: 'PUT',
      name: 'Autumn stay',
      subject: 'Autumn in Kyoto, for you',
      updatedAt: '2026-11-21T00:01:00.000Z',
    });
    expect(saves).toHaveLength(2);
    expect(screen.queryByTestId('leave-guard')).toBeNull();
    expect(router.state.location.pathname).toBe('/campaign');
  }, 30_000);

  it('shows a step passed by while incomplete in red, as the review says, and only once the user moved past it', async () => {
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'POST' && url.pathname === '/v1/campaigns') {
        const body = JSON.parse(String(init.body)) as { name: string; subject: string };
        return { body: { data: campaign(body, '2026-11-21T00:00:00.000Z') } };
      }
      return undefined;
    });
    const { container } = await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/new',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const red = (step: string) =>
      (screen.getByTestId(`campaign-step-${step}`).getAttribute('style') ?? '').includes('red');
    await waitFor(() => expect(container.querySelector('input[name="name"]')).not.toBeNull(), { timeout: 10_000 });
    // The review clicked with an empty name: the details are red, the steps not yet reached are not.
    fireEvent.click(screen.getByTestId('campaign-step-review'));
    await waitFor(() => expect(red('details')).toBe(true));
    expect(red('recipients')).toBe(false);
    expect(red('content')).toBe(false);
    fireEvent.change(container.querySelector('input[name="name"]') as HTMLInputElement, {
      target: { value: '冬のご案内' },
    });
    fireEvent.change(container.querySelector('input[name="subject"]') as HTMLInputElement, {
      target: { value: '冬の特別プラン' },
    });
    // Straight to the review past the segments and the template, neither chosen.
    fireEvent.click(screen.getByTestId('campaign-step-review'));
    await screen.findByTestId('campaign-summary', {}, { timeout: 10_000 });
    expect(screen.getByText('Please complete the steps marked in red first.')).toBeTruthy();
    expect(red('details')).toBe(false);
    expect(red('recipients')).toBe(true);
    expect(red('content')).toBe(true);
    expect(red('schedule')).toBe(false);
  }, 30_000);

  it('opened at the review, shows the incomplete steps before it in red', async () => {
    mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1')
        return {
          body: { data: campaign({ name: '冬のご案内', subject: '冬の特別プラン' }, '2026-11-21T00:00:00.000Z') },
        };
      return undefined;
    });
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=review',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByTestId('campaign-summary', {}, { timeout: 10_000 });
    const red = (step: string) =>
      (screen.getByTestId(`campaign-step-${step}`).getAttribute('style') ?? '').includes('red');
    expect(screen.getByText('Please complete the steps marked in red first.')).toBeTruthy();
    expect([red('details'), red('recipients'), red('content'), red('schedule')]).toEqual([false, true, true, false]);
    // Not ticked as done: marked as needing attention.
    const marked = (step: string) =>
      screen.getByTestId(`campaign-step-${step}`).querySelector('.tabler-icon-exclamation-mark') !== null;
    expect([marked('details'), marked('recipients'), marked('content'), marked('schedule')]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  }, 30_000);

  it('asks before leaving only when the change could not be saved, and then it is not saved', async () => {
    let puts = 0;
    mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (url.pathname !== '/v1/campaigns/c1') return undefined;
      if (method === 'GET')
        return {
          body: { data: campaign({ name: '冬のご案内', subject: '冬の特別プラン' }, '2026-11-21T00:00:00.000Z') },
        };
      puts += 1;
      return { status: 500, body: { error: { code: 'general', message: 'x' } } };
    });
    const { container, router } = await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      routes: [{ path: '/campaign', element: <div data-testid="campaign-list" /> }],
    });
    await waitFor(() => expect(container.querySelector('input[name="subject"]')).not.toBeNull(), { timeout: 10_000 });
    fireEvent.change(container.querySelector('input[name="subject"]') as HTMLInputElement, {
      target: { value: '冬の特別プラン、ご家族で' },
    });
    fireEvent.click(screen.getByRole('link', { name: 'Back to the campaign list' }));
    await screen.findByTestId('leave-guard', {}, { timeout: 10_000 });
    expect(puts).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/campaign/c1/edit');
    expect(screen.queryByTestId('campaign-list')).toBeNull();
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

/** A draft with every step filled (a segment, a template), as the campaign routes answer it. */
const completeDraft = (overrides: Partial<TCampaign> = {}) =>
  campaignFixture({
    subject: '冬の特別プラン',
    senderEmail: values.senderEmail,
    recipients: { segmentIds: ['s1'], excludeSegmentIds: [] },
    templateId: 't1',
    templateName: '冬',
    hostId: 'brand',
    ...overrides,
  });

describe('the campaign editor’s schedule', () => {
  it('keeps a date and time typed in a draft as planned, without scheduling it: reopened, they are there with the Schedule button', async () => {
    let stored = completeDraft();
    const puts: Record<string, unknown>[] = [];
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1') return { body: { data: stored } };
      if (method !== 'PUT' || url.pathname !== '/v1/campaigns/c1') return undefined;
      const body = JSON.parse(String(init.body)) as Record<string, unknown> & { plannedSchedule?: TSchedule };
      puts.push(body);
      // The server keeps a draft's planned schedule in its schedule, with no send time.
      const planned = body.plannedSchedule;
      stored = {
        ...stored,
        schedule: planned
          ? planned.kind === 'at'
            ? { kind: 'at', localTime: planned.localTime, timeZone: planned.timeZone }
            : { kind: 'now', localTime: null, timeZone: null }
          : stored.schedule,
        updatedAt: new Date().toISOString(),
      };
      return { body: { data: stored } };
    });
    const view = await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=schedule',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      routes: [{ path: '/campaign', element: <div data-testid="campaign-list" /> }],
    });
    const kind = await screen.findByTestId('campaign-schedule-kind', {}, { timeout: 15_000 });
    fireEvent.click(within(kind).getByText('Schedule'));
    fireEvent.change(view.container.querySelector('input[name="date"]') as HTMLInputElement, {
      target: { value: '2099-12-24' },
    });
    fireEvent.change(view.container.querySelector('input[name="time"]') as HTMLInputElement, {
      target: { value: '18:00' },
    });
    await waitFor(() => expect(screen.getByTestId('save-status').getAttribute('data-state')).toBe('saved'), {
      timeout: 10_000,
    });
    expect(puts.at(-1)?.plannedSchedule).toEqual({ kind: 'at', localTime: '2099-12-24T18:00', timeZone: 'Asia/Tokyo' });
    fireEvent.click(screen.getByTestId('campaign-save-draft'));
    await screen.findByTestId('campaign-list');
    // Saved as a draft: never scheduled nor sent.
    expect(stored.status).toBe('draft');
    view.unmount();

    // Reopened: the review says when it is planned, and the button schedules it (no "Send now").
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=review',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const summary = await screen.findByTestId('campaign-summary', {}, { timeout: 15_000 });
    expect(summary.textContent).toContain('(Asia/Tokyo)');
    expect(summary.textContent).toContain('2099');
    expect(summary.textContent).not.toContain('Sends as soon as you confirm.');
    expect(screen.getByTestId('campaign-schedule').textContent).toBe('Schedule');
    expect(screen.queryByTestId('campaign-send-now')).toBeNull();
    fireEvent.click(screen.getByTestId('campaign-step-schedule'));
    expect(((await screen.findByLabelText('Date')) as HTMLInputElement).value).toBe('2099-12-24');
    expect((screen.getByLabelText('Time') as HTMLInputElement).value).toBe('18:00');
  }, 40_000);

  it('says a new time of a scheduled campaign takes effect only when it is scheduled again, never autosaves it, and asks before leaving it unapplied', async () => {
    const puts: Record<string, unknown>[] = [];
    const scheduled = completeDraft({
      status: 'scheduled',
      schedule: { kind: 'at', localTime: '2099-01-10T09:00', timeZone: 'Asia/Tokyo' },
      sendAt: '2099-01-10T00:00:00.000Z',
    });
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1') return { body: { data: scheduled } };
      if (method !== 'PUT' || url.pathname !== '/v1/campaigns/c1') return undefined;
      puts.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return { body: { data: { ...scheduled, updatedAt: new Date().toISOString() } } };
    });
    const { container, router } = await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=schedule',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      routes: [{ path: '/campaign', element: <div data-testid="campaign-list" /> }],
    });
    await waitFor(() => expect(container.querySelector('input[name="time"]')).not.toBeNull(), { timeout: 15_000 });
    expect(screen.queryByTestId('campaign-reschedule-pending')).toBeNull();
    fireEvent.change(container.querySelector('input[name="time"]') as HTMLInputElement, { target: { value: '10:30' } });
    expect(screen.getByTestId('campaign-reschedule-pending').textContent).toBe(
      'This campaign is scheduled for 10 Jan 2099, 9:00 AM (Asia/Tokyo) and goes out then. The time chosen here takes effect only when you press “Schedule” on the Review step.',
    );
    await waitFor(() => expect(puts.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(puts.every((body) => !('plannedSchedule' in body))).toBe(true);
    // Leaving now would drop the new time without a word (the save before leaving cannot apply
    // it): the page asks, and staying keeps it on screen.
    fireEvent.click(screen.getByRole('link', { name: 'Back to the campaign list' }));
    await screen.findByTestId('leave-guard', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/campaign/c1/edit');
    expect((container.querySelector('input[name="time"]') as HTMLInputElement).value).toBe('10:30');
    // The time it had: nothing to say, and nothing to ask on leaving.
    fireEvent.change(container.querySelector('input[name="time"]') as HTMLInputElement, { target: { value: '09:00' } });
    expect(screen.queryByTestId('campaign-reschedule-pending')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Back to the campaign list' }));
    await screen.findByTestId('campaign-list', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('leave-guard')).toBeNull();
  }, 30_000);
});

describe('the campaign editor’s send now', () => {
  const quiet = {
    sendAt: '2026-11-26T13:00:00.000Z',
    inQuietHours: true,
    quietHours: { start: '21:00', end: '08:00', timeZone: 'Asia/Tokyo' },
    deferredTo: '2026-11-26T23:00:00.000Z',
  };
  const answer = (sent: string[]) =>
    mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1') return { body: { data: completeDraft() } };
      if (method === 'POST' && url.pathname === '/v1/campaigns/quiet-hours') return { body: { data: quiet } };
      if (method === 'POST' && url.pathname === '/v1/campaigns/audience')
        return {
          body: {
            data: { matched: 2, unsubscribed: 0, noEmail: 0, bounced: 0, frequencyCapped: 0, recipients: 2 },
          },
        };
      if (method === 'POST' && url.pathname === '/v1/campaigns/c1/send-now') {
        sent.push('c1');
        return { body: { data: completeDraft({ status: 'scheduled' }) } };
      }
      return undefined;
    });

  it('says in the quiet hours that the mail is held until they end: in the review, the confirmation and the toast', async () => {
    const sent: string[] = [];
    answer(sent);
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=review',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      routes: [{ path: '/campaign/:id', element: <div data-testid="campaign-report" /> }],
    });
    const summary = await screen.findByTestId('campaign-summary', {}, { timeout: 15_000 });
    await waitFor(() =>
      expect(summary.textContent).toContain(
        'Held by the quiet hours: sends 27 Nov 2026, 8:00 AM (Asia/Tokyo), when they end.',
      ),
    );
    expect(summary.textContent).not.toContain('Sends as soon as you confirm.');
    fireEvent.click(screen.getByTestId('campaign-send-now'));
    await waitFor(() =>
      expect(screen.getByTestId('campaign-send-now-message').textContent).toBe(
        'It is quiet hours now: “冬のご案内” will be held and sent to its recipients when they end, 27 Nov 2026, 8:00 AM (Asia/Tokyo). Guests who will receive it: 2. This cannot be undone.',
      ),
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send now' }));
    await screen.findByTestId('campaign-report', {}, { timeout: 10_000 });
    expect(sent).toEqual(['c1']);
    expect(currentSnackbars().map((bar) => bar.text)).toContain(
      'Campaign confirmed: held by the quiet hours, it goes out 27 Nov 2026, 8:00 AM (Asia/Tokyo)',
    );
  }, 30_000);

  it('says so in Japanese too', async () => {
    answer([]);
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=review',
      pattern: '/campaign/:id/edit',
      language: 'ja',
      queryClient: signedInClient(profileFixture('brand', 'admin', { language: 'ja' })),
    });
    const summary = await screen.findByTestId('campaign-summary', {}, { timeout: 15_000 });
    await waitFor(() =>
      expect(summary.textContent).toContain(
        '配信休止時間帯のため、終了する2026年11月27日 午前8:00 (Asia/Tokyo)に配信します。',
      ),
    );
    fireEvent.click(screen.getByTestId('campaign-send-now'));
    await waitFor(() =>
      expect(screen.getByTestId('campaign-send-now-message').textContent).toBe(
        '現在は配信休止時間帯です。「冬のご案内」は送信を保留し、時間帯が終わる2026年11月27日 午前8:00 (Asia/Tokyo)に配信対象へ送信します。受信するゲスト：2人。この操作は取り消せません。',
      ),
    );
  }, 30_000);
});

describe('the campaign editor’s send now with an A/B test and a holdout', () => {
  it('names how many guests will be mailed and how many are held out, and sums up the test with its subjects', async () => {
    const tested = completeDraft({
      experiment: {
        ...completeDraft().experiment,
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
        holdoutPercent: 10,
      },
    });
    const asked: Record<string, unknown>[] = [];
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1') return { body: { data: tested } };
      if (method === 'POST' && url.pathname === '/v1/campaigns/quiet-hours')
        return {
          body: {
            data: {
              sendAt: '2026-11-26T03:00:00.000Z',
              inQuietHours: false,
              quietHours: { start: '21:00', end: '08:00', timeZone: 'Asia/Tokyo' },
              deferredTo: null,
            },
          },
        };
      if (method === 'POST' && url.pathname === '/v1/campaigns/audience') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        asked.push(body);
        const counts = { matched: 654, unsubscribed: 0, noEmail: 0, bounced: 0, frequencyCapped: 0 };
        return {
          body: { data: body.holdout ? { ...counts, recipients: 600, heldOut: 54 } : { ...counts, recipients: 654 } },
        };
      }
      return undefined;
    });
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=review',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const summary = await screen.findByTestId('campaign-summary', {}, { timeout: 15_000 });
    await waitFor(() =>
      expect(summary.textContent).toContain(
        '2 variants on 20% of the audience, winner by clicks after 4 h: A “冬の特別プラン”, B “冬だけの特別料金”',
      ),
    );
    fireEvent.click(screen.getByTestId('campaign-send-now'));
    await waitFor(() =>
      expect(screen.getByTestId('campaign-send-now-message').textContent).toBe(
        '“冬のご案内” will be sent to its recipients now. Guests who will receive it: 600; 54 more in the holdout group are never mailed. This cannot be undone.',
      ),
    );
    // The server counts the holdout of this campaign (its id seeds the draw) and share.
    expect(asked.some((b) => JSON.stringify(b.holdout) === JSON.stringify({ campaignId: 'c1', percent: 10 }))).toBe(
      true,
    );
  }, 30_000);
});

describe('creating a campaign', () => {
  it('shows a role without campaign.create (a hotel viewer) the no-access page, not the wizard', async () => {
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/new',
      queryClient: signedInClient(profileFixture('hotel', 'viewer')),
    });
    const page = await screen.findByTestId('area-forbidden');
    expect(page.textContent).toContain("Oops! It looks like you don't have permission to access our system.");
    expect(screen.queryByTestId('campaign-next')).toBeNull();
    expect(screen.queryByTestId('campaign-read-only')).toBeNull();
  });
});

describe('the campaign editor’s test send', () => {
  it('offers only the template’s languages and says what guests who read the other one get; the test goes in the one offered', async () => {
    const tests: { language?: string; emails: string[] }[] = [];
    mockFetch((method, url, init) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/c1') return { body: { data: completeDraft() } };
      if (method === 'GET' && url.pathname === '/v1/templates/t1')
        return {
          body: {
            data: {
              id: 't1',
              name: '冬',
              description: '',
              coverImageUrl: null,
              defaultLanguage: 'ja',
              languages: ['ja'],
              owner: { hostId: 'brand', name: 'さくらホテルズ', level: 'brand' },
              editable: true,
              version: 1,
              createdAt: '2026-11-01T00:00:00.000Z',
              updatedAt: '2026-11-01T00:00:00.000Z',
              updatedByName: null,
              contents: {},
            },
          },
        };
      if (method === 'POST' && url.pathname === '/v1/campaigns/c1/test-send') {
        tests.push(JSON.parse(String(init.body)) as { language?: string; emails: string[] });
        return { body: { data: { sent: 1 } } };
      }
      return undefined;
    });
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/c1/edit?step=review',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const note = await screen.findByTestId('campaign-test-language-missing', {}, { timeout: 15_000 });
    expect(note.textContent).toBe(
      'This template has no English version: the test, and the guests who read English, get the Japanese one.',
    );
    const control = screen.getByTestId('campaign-test-language');
    expect((within(control).getByLabelText('English') as HTMLInputElement).disabled).toBe(true);
    expect((within(control).getByLabelText('Japanese') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId('campaign-test-submit'));
    await waitFor(() => expect(tests).toHaveLength(1), { timeout: 10_000 });
    expect(tests[0]?.language).toBe('ja');
  }, 30_000);

  it('says once that a campaign not found is not found, and a failing setup by its own reason', async () => {
    let setupFails = false;
    mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/sending/setup')
        return setupFails
          ? { status: 500, body: { error: { code: 'general', message: 'x' } } }
          : { body: { data: setup } };
      if (method === 'GET' && url.pathname === '/v1/campaigns/gone')
        return { status: 404, body: { error: { code: 'not_found', message: 'Page not found.' } } };
      return undefined;
    });
    const first = await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/gone/edit',
      pattern: '/campaign/:id/edit',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    expect(await screen.findAllByText('Page not found.', {}, { timeout: 10_000 })).toHaveLength(1);
    first.unmount();
    setupFails = true;
    await renderWithProviders(<CampaignEditorPage />, {
      path: '/campaign/new',
      pattern: '/campaign/new',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByText('An error has occured.', {}, { timeout: 10_000 });
    expect(screen.queryByText('Page not found.')).toBeNull();
  }, 30_000);
});
