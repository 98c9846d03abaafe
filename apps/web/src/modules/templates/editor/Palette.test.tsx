import { DndContext } from '@dnd-kit/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ALL_TEXTS } from '../../../i18n/allTexts';
import { profileFixture } from '../../../test/fixtures';
import { renderWithProviders, signedInClient } from '../../../test/render';
import { Palette } from './Palette';

const en = ALL_TEXTS.en.templates;

async function renderPalette(compact: boolean) {
  const onAddItem = vi.fn();
  await renderWithProviders(
    <DndContext>
      <Palette compact={compact} onAddItem={onAddItem} onAddSection={() => undefined} />
    </DndContext>,
    { queryClient: signedInClient(profileFixture('brand', 'admin')), language: 'en' },
  );
  return onAddItem;
}

describe('the palette', () => {
  it('names each block under its icon, with headings and the hint', async () => {
    await renderPalette(false);
    expect(screen.getByText(en.palette.blocks)).toBeTruthy();
    expect(screen.getByText(en.blocks.image)).toBeTruthy();
    expect(screen.getByText(en.palette.hint)).toBeTruthy();
    expect(screen.getByTestId('palette').hasAttribute('data-compact')).toBe(false);
  });

  it('compact: icons only, each still a named button, its name and the hint on hover', async () => {
    const onAddItem = await renderPalette(true);
    expect(screen.getByTestId('palette').getAttribute('data-compact')).toBe('true');
    expect(screen.queryByText(en.palette.blocks)).toBeNull();
    expect(screen.queryByText(en.palette.hint)).toBeNull();
    expect(screen.queryByText(en.blocks.image)).toBeNull();
    const image = screen.getByRole('button', { name: 'Add Image' });
    fireEvent.mouseEnter(image);
    // In the document though not yet shown: jsdom runs no transition (the e2e sees it shown).
    await waitFor(() => expect(screen.getByRole('tooltip', { hidden: true }).textContent).toContain(en.blocks.image));
    expect(screen.getByRole('tooltip', { hidden: true }).textContent).toContain(en.palette.hint);
    fireEvent.click(image);
    expect(onAddItem).toHaveBeenCalledWith('image');
  });
});
