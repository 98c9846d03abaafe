import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { emptyDraft } from '../campaignDraft';
import { ScheduleStep } from './ScheduleStep';

const noop = () => undefined;

describe('campaign schedule step', () => {
  it('links the quiet-hours warning to the setting, for those who may change it', async () => {
    mockFetch((method, url) =>
      method === 'POST' && url.pathname === '/v1/campaigns/quiet-hours'
        ? {
            body: {
              data: {
                sendAt: '2026-11-26T13:00:00.000Z',
                inQuietHours: true,
                quietHours: { start: '21:00', end: '08:00', timeZone: 'Asia/Tokyo' },
                deferredTo: '2026-11-26T23:00:00.000Z',
              },
            },
          }
        : undefined,
    );
    const step = (canManageSettings: boolean) => (
      <ScheduleStep
        draft={emptyDraft('Asia/Tokyo', null)}
        change={noop}
        problems={{}}
        readOnly={false}
        hostTimeZone="Asia/Tokyo"
        canManageSettings={canManageSettings}
      />
    );
    const view = await renderWithProviders(step(true));
    const warning = await screen.findByTestId('campaign-quiet-hours');
    const link = within(warning).getByRole('link', { name: 'Change the quiet hours in Settings' });
    expect(link.getAttribute('href')).toBe('/settings#quiet-hours');
    view.unmount();

    await renderWithProviders(step(false));
    expect(within(await screen.findByTestId('campaign-quiet-hours')).queryByRole('link')).toBeNull();
  });
});
