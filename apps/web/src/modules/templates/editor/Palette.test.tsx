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

  it('gives the template tile a row of its own, so its label (テンプレート) is never broken inside the word', async () => {
    await renderPalette(false);
    const tiles = screen.getAllByTestId('palette-item');
    const template = tiles.find((tile) => tile.dataset.item === 'palette:template')!;
    expect(template.style.gridColumn).toBe('span 2');
    expect(template.querySelector('p')?.style.wordBreak).toBe('keep-all');
    // The other six blocks pair up in the two columns below it.
    const blocks = tiles.filter((tile) => !tile.dataset.item?.startsWith('palette:section') && tile !== template);
    expect(blocks.map((tile) => tile.style.gridColumn)).toEqual(Array(6).fill(''));
  });
});
