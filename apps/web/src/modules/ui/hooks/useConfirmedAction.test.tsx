import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http/ApiError';
import { renderWithProviders } from '../../../test/render';
import { SnackbarHost } from '../components/SnackbarHost';
import { actAtOnce, useConfirmedAction } from './useConfirmedAction';

interface TItem {
  id: string;
  name: string;
}

function Row({
  perform,
  onDone,
  onRefused,
}: {
  perform: (action: 'delete' | 'stop', item: TItem) => Promise<unknown>;
  onDone: (action: string) => void;
  onRefused: (error: unknown) => void;
}) {
  const { ask, dialog } = useConfirmedAction<'delete' | 'stop', TItem>({
    perform,
    doneText: (action, item) => `${action} done: ${item.name}`,
    confirmText: (action, item) => ({
      title: `Really ${action}?`,
      message: `${item.name} goes for good.`,
      confirmLabel: action === 'delete' ? 'Delete' : 'Stop',
      cancelLabel: 'Keep',
      danger: true,
      typedSentence: action === 'stop' ? 'stop it' : undefined,
    }),
    onDone,
    onRefused,
    refusalTestId: 'row-refusal',
  });
  return (
    <>
      <button type="button" onClick={() => ask('delete', { id: '1', name: 'Summer' })}>
        ask delete
      </button>
      <button type="button" onClick={() => ask('stop', { id: '2', name: 'Winter' })}>
        ask stop
      </button>
      {dialog}
      <SnackbarHost />
    </>
  );
}

describe('useConfirmedAction', () => {
  it('asks first, keeps a refusal in the dialog in the user’s language, then acts, notifies and calls onDone', async () => {
    const refusal = new ApiError(409, 'campaign_not_paused', 'not paused');
    const perform = vi.fn().mockRejectedValueOnce(refusal).mockResolvedValueOnce(undefined);
    const onDone = vi.fn();
    const onRefused = vi.fn();
    await renderWithProviders(<Row perform={perform} onDone={onDone} onRefused={onRefused} />);
    fireEvent.click(screen.getByRole('button', { name: 'ask delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Really delete?')).toBeTruthy();
    expect(within(dialog).getByText('Summer goes for good.')).toBeTruthy();
    expect(perform).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByTestId('row-refusal')).textContent).toBe('This campaign is not paused.');
    expect(onRefused).toHaveBeenCalledWith(refusal);
    expect(onDone).not.toHaveBeenCalled();

    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('delete', { id: '1', name: 'Summer' }));
    expect(perform).toHaveBeenCalledTimes(2);
    expect(await screen.findByText('delete done: Summer')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens without the last refusal, and wants the typed sentence when one is set', async () => {
    const perform = vi.fn().mockResolvedValue(undefined);
    await renderWithProviders(<Row perform={perform} onDone={vi.fn()} onRefused={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'ask stop' }));
    const dialog = await screen.findByRole('dialog');
    expect(screen.queryByTestId('row-refusal')).toBeNull();
    const stop = within(dialog).getByRole('button', { name: 'Stop' }) as HTMLButtonElement;
    expect(stop.disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'stop it' } });
    expect(stop.disabled).toBe(false);
    fireEvent.click(stop);
    await waitFor(() => expect(perform).toHaveBeenCalledWith('stop', { id: '2', name: 'Winter' }));
  });
});

describe('actAtOnce', () => {
  function Now({ work, then }: { work: () => Promise<string>; then: () => void }) {
    const { t } = useTranslation();
    return (
      <>
        <button type="button" onClick={() => void actAtOnce(work, t, then)}>
          go
        </button>
        <SnackbarHost />
      </>
    );
  }

  it('notifies the success and goes on, or notifies the refusal in the user’s language and stops', async () => {
    const then = vi.fn();
    const work = vi
      .fn()
      .mockResolvedValueOnce('Copied “Summer”')
      .mockRejectedValueOnce(new ApiError(409, 'campaign_not_paused', 'not paused'));
    await renderWithProviders(<Now work={work} then={then} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'go' })));
    expect(await screen.findByText('Copied “Summer”')).toBeTruthy();
    expect(then).toHaveBeenCalledTimes(1);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'go' })));
    expect(await screen.findByText('This campaign is not paused.')).toBeTruthy();
    expect(then).toHaveBeenCalledTimes(1);
  });
});
