import { DndContext } from '@dnd-kit/core';
import { screen } from '@testing-library/react';
import type { TBlock } from '@yado/contracts/templates';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { renderWithProviders, signedInClient } from '../../../test/render';
import { BlockView } from './BlockView';
import { BuilderContext, type TBuilder } from './builderContext';
import { newBlock } from './documentEditing';

const builder: TBuilder = {
  language: 'ja',
  dispatch: () => undefined,
  selectedId: null,
  select: () => undefined,
  readOnly: false,
  indicator: null,
  dragging: false,
};

async function renderBlock(block: TBlock, language: 'ja' | 'en' = 'en') {
  return renderWithProviders(
    <DndContext>
      <BuilderContext.Provider value={builder}>
        <BlockView block={block} sectionId="s1" columnIndex={0} index={0} />
      </BuilderContext.Provider>
    </DndContext>,
    { queryClient: signedInClient(profileFixture('brand', 'admin')), language },
  );
}

describe('a button or link block on the canvas', () => {
  it('reads as missing while a new button has no label, and says the mail leaves it out', async () => {
    await renderBlock(newBlock('button', 'btn1'));
    const placeholder = screen.getByTestId('block-unlabelled');
    expect(placeholder.textContent).toBe('Button: add a label and a link. Without a label it is left out of the mail.');
    expect(placeholder.style.border).toContain('dashed');
  });

  it('says it in Japanese too, and for a link without text', async () => {
    await renderBlock(newBlock('link', 'lnk1'), 'ja');
    expect(screen.getByTestId('block-unlabelled').textContent).toBe(
      'リンク：テキストとリンク先を入力してください。テキストがないリンクはメールに入りません。',
    );
  });

  it('shows a labelled button as the button itself', async () => {
    await renderBlock({ ...newBlock('button', 'btn1'), label: 'Book now' } as TBlock);
    expect(screen.queryByTestId('block-unlabelled')).toBeNull();
    expect(screen.getByText('Book now')).toBeTruthy();
  });
});
