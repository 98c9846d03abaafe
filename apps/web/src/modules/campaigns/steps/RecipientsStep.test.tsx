import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { emptyDraft } from '../campaignDraft';
import { RecipientsStep } from './RecipientsStep';

const noop = () => undefined;
// The acting host has no segment at all.
const noSegments = () => {
  mockFetch((method, url) => {
    if (method !== 'GET' || url.pathname !== '/v1/segments') return undefined;
    return { body: { data: { items: [], total: 0, page: 1, pageSize: 100, timeZone: 'Asia/Tokyo' } } };
  });
};
const render = (canCreateSegments: boolean, language: 'en' | 'ja' = 'en') =>
  renderWithProviders(
    <RecipientsStep
      draft={emptyDraft('Asia/Tokyo', null)}
      change={noop}
      problems={{}}
      readOnly={false}
      frequencyCap={null}
      canCreateSegments={canCreateSegments}
    />,
    { language },
  );

describe('campaign recipients step', () => {
  it('tells a host without any segment why there is nothing to choose, and links to creating one for those who may', async () => {
    noSegments();
    await render(true);
    const note = await screen.findByTestId('campaign-no-segments');
    expect(note.textContent).toBe(
      'No segments yet. A campaign goes to the customers of one or more segments: create one first.Create a segment',
    );
    expect(screen.getByRole('link', { name: 'Create a segment' }).getAttribute('href')).toBe('/segmentation/new');
  });

  it('says it in Japanese too, without the link for a user who may not create segments', async () => {
    noSegments();
    await render(false, 'ja');
    expect((await screen.findByTestId('campaign-no-segments')).textContent).toBe(
      'セグメントがまだありません。キャンペーンは1つ以上のセグメントの顧客に配信します。先にセグメントを作成してください。',
    );
    expect(screen.queryByRole('link')).toBeNull();
  });
});
