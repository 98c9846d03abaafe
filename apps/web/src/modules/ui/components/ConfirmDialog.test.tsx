import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { ConfirmDialog } from './ConfirmDialog';

/** A dialog whose caller reports its work as `loading` only later, as a mutation does. */
function Caller({ onConfirm, settle }: { onConfirm: () => void; settle: (done: (failed: boolean) => void) => void }) {
  const [loading, setLoading] = useState(false);
  const [opened, setOpened] = useState(true);
  return (
    <ConfirmDialog
      opened={opened}
      title="Lift"
      message="Sure?"
      loading={loading}
      onConfirm={() => {
        onConfirm();
        setTimeout(() => setLoading(true), 0);
        settle((failed) => {
          setLoading(false);
          if (!failed) setOpened(false);
        });
      }}
      onClose={() => setOpened(false)}
    />
  );
}

describe('ConfirmDialog', () => {
  it('runs its action once for a double click, before the caller shows it loading, and again after a refusal', async () => {
    const onConfirm = vi.fn();
    let done: (failed: boolean) => void = () => {};
    await renderWithProviders(<Caller onConfirm={onConfirm} settle={(d) => (done = d)} />);
    const confirm = await screen.findByRole('button', { name: 'Confirm' });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await act(() => new Promise((r) => setTimeout(r, 10)));
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    // Refused: the dialog stays, and may be confirmed again.
    await act(async () => done(true));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('holds further presses until the promise its action returns settles, whether it succeeds or fails', async () => {
    let finish: (ok: boolean) => void = () => {};
    const onConfirm = vi.fn(
      () => new Promise<void>((resolve, reject) => (finish = (ok) => (ok ? resolve() : reject(new Error('no'))))),
    );
    await renderWithProviders(
      <ConfirmDialog opened title="Remove" message="Sure?" onConfirm={onConfirm} onClose={() => {}} />,
    );
    const confirm = await screen.findByRole('button', { name: 'Confirm' });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await act(async () => finish(false));
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });
});
