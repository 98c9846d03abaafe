import type { TMe } from '@yado/contracts/auth';
import type { ReactElement } from 'react';
import { renderWithProviders, signedInClient } from '../../../test/render';

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
