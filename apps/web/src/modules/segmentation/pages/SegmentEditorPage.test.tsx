import { fireEvent, screen, waitFor } from '@testing-library/react';
import { featureFlagsFor } from '@yado/contracts';
import type { TFilter } from '@yado/contracts/segments';
import { beforeAll, describe, expect, it } from 'vitest';
import { profileFixture, segmentFixture } from '../../../test/fixtures';
import { mockFetch } from '../../../test/render';
import { renderSegmentPage } from '../test/segmentPages';
import { SegmentEditorPage } from './SegmentEditorPage';

const ID = '5f0c2a52-6c1e-4f3e-9f57-2f2f6f1f0a02';
const filter: TFilter = {
  version: 1,
  join: 'and',
  groups: [
    { kind: 'group', join: 'and', items: [{ kind: 'condition', field: 'lastName', operator: 'is', value: 'Sato' }] },
  ],
};
const segment = segmentFixture(ID, { name: 'Satos', type: 'dynamic', filter, audience: 3 });

// jsdom has no font loading; Mantine's autosizing description field listens for it.
beforeAll(() => {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
});

describe('segment editor with dynamic segments turned off', () => {
  it("shows a dynamic segment's filter read-only, never counts it, and saves the name with the filter as it was", async () => {
    const sent: { path: string; body: unknown }[] = [];
    mockFetch((method, url, init) => {
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : null;
      if (method === 'GET' && url.pathname === `/v1/segments/${ID}`) return { body: { data: segment } };
      if (method === 'PUT' && url.pathname === `/v1/segments/${ID}`) {
        sent.push({ path: url.pathname, body });
        return { body: { data: { ...segment, name: 'Satos 2' } } };
      }
      if (url.pathname === '/v1/segments/count') sent.push({ path: url.pathname, body });
      if (url.pathname.startsWith('/v1/locations/') || url.pathname === '/v1/segments/field-values')
        return { body: { data: [] } };
      return undefined;
    });
    const features = { ...featureFlagsFor('production'), dynamic_segmentation: false };
    await renderSegmentPage(<SegmentEditorPage />, ID, profileFixture('brand', 'admin', { features }), '/edit');
    const locked = await screen.findByTestId('filter-locked');
    expect(locked.textContent).toContain('Dynamic segments are turned off. Static segments can still be used.');
    expect(screen.queryByTestId('filter-builder')).toBeNull();
    const name = screen.getByRole('textbox', { name: /Name/ });
    fireEvent.change(name, { target: { value: 'Satos 2' } });
    fireEvent.click(screen.getByTestId('segment-save'));
    await waitFor(() => expect(sent.filter((s) => s.path === `/v1/segments/${ID}`)).toHaveLength(1));
    expect(sent.find((s) => s.path === `/v1/segments/${ID}`)?.body).toMatchObject({ name: 'Satos 2', filter });
    expect(sent.filter((s) => s.path === '/v1/segments/count')).toHaveLength(0);
  }, 20_000);
});
