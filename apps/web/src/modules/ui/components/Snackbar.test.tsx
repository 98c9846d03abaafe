import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { showSnackbar, SNACKBAR_DURATION_MS } from './Snackbar';
import { SnackbarHost } from './SnackbarHost';
import { currentSnackbars, hideSnackbar } from './snackbarStore';

describe('snackbar', () => {
  it('shows a failed badge with the general text when no message is given', async () => {
    await renderWithProviders(<SnackbarHost />);
    act(() => void showSnackbar({ status: 'failed' }));
    const bar = await screen.findByTestId('snackbar');
    expect(bar.getAttribute('data-status')).toBe('failed');
    expect(bar.textContent).toContain('Failed');
    expect(bar.textContent).toContain('An error has occured.');
  });

  it('runs its action and closes when the action link is clicked', async () => {
    await renderWithProviders(<SnackbarHost />);
    const undo = vi.fn();
    act(() => void showSnackbar({ status: 'success', message: 'Saved', action: { label: 'Undo', onClick: undo } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByText('Saved')).toBeNull());
  });

  it('hides by itself after 5,000 ms', async () => {
    expect(SNACKBAR_DURATION_MS).toBe(5000);
    await renderWithProviders(<SnackbarHost />);
    act(() => void showSnackbar({ status: 'success', message: 'Short-lived', durationMs: 300 }));
    await screen.findByText('Short-lived');
    await waitFor(() => expect(screen.queryByText('Short-lived')).toBeNull(), { timeout: 3000 });
  });

  it('shows one success at a time, the newest, while failures stay', async () => {
    await renderWithProviders(<SnackbarHost />);
    act(() => {
      for (const left of currentSnackbars()) hideSnackbar(left.id);
      showSnackbar({ status: 'failed', message: 'Could not save' });
      showSnackbar({ status: 'success', message: 'Created.' });
      showSnackbar({ status: 'success', message: 'Saved.' });
    });
    await screen.findByText('Saved.');
    const bars = screen.getAllByTestId('snackbar');
    expect(bars.map((bar) => bar.getAttribute('data-status'))).toEqual(['failed', 'success']);
    expect(screen.queryByText('Created.')).toBeNull();
    expect(screen.getByText('Could not save')).toBeTruthy();
  });

  it('shows a repeated failure once', async () => {
    await renderWithProviders(<SnackbarHost />);
    act(() => {
      for (const left of currentSnackbars()) hideSnackbar(left.id);
      showSnackbar({ status: 'failed', message: 'Could not save' });
      showSnackbar({ status: 'failed', message: 'Could not delete' });
      showSnackbar({ status: 'failed', message: 'Could not save' });
    });
    await screen.findByText('Could not delete');
    expect(screen.getAllByTestId('snackbar').map((bar) => bar.textContent)).toEqual([
      expect.stringContaining('Could not delete'),
      expect.stringContaining('Could not save'),
    ]);
  });
});
