import type { TMe } from '@yado/contracts/auth';
import type { TSegment } from '@yado/contracts/segments';
import type { ReactElement } from 'react';
import { renderWithProviders, signedInClient } from '../../../test/render';

/** A segment as GET /v1/segments/:id answers it: static, counted, owned by the acting brand. */
export function segmentFixture(id: string, overrides: Partial<TSegment> = {}): TSegment {
  return {
    id,
    name: 'Summer guests',
    description: '',
    type: 'static',
    filter: null,
    audience: 12,
    audienceCountedAt: '2026-11-24T00:00:00Z',
    hostId: 'h1',
    hostName: 'さくらホテルズ',
    hostLevel: 'brand',
    editable: true,
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    createdBy: null,
    updatedBy: null,
    ...overrides,
  };
}

/**
 * Renders a segment page as its route does (`/segmentation/:id`, or with `tail`, e.g. `/edit`),
 * for a signed-in profile.
 */
export function renderSegmentPage(ui: ReactElement, id: string, me: TMe, tail = '') {
  return renderWithProviders(ui, {
    path: `/segmentation/${id}${tail}`,
    pattern: `/segmentation/:id${tail}`,
    queryClient: signedInClient(me),
  });
}
