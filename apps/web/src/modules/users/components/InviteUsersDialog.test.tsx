import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { InviteUsersDialog } from './InviteUsersDialog';

describe('InviteUsersDialog', () => {
  it('asks before Escape or Cancel drops the addresses typed, and keeps them when asked to', async () => {
    const onClose = vi.fn();
    await renderWithProviders(<InviteUsersDialog opened onClose={onClose} onInvited={vi.fn()} />, {
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    const form = within(await screen.findByTestId('invite-form'));
    const escape = () => fireEvent.keyDown(document.body, { key: 'Escape' });

    // Nothing typed: Escape closes at once.
    escape();
    expect(onClose).toHaveBeenCalledTimes(1);

    const emails = form.getByRole('textbox', { name: /^Email/ }) as HTMLTextAreaElement;
    fireEvent.change(emails, { target: { value: 'a@sakura.co.jp\nb@sakura.co.jp' } });
    escape();
    await screen.findByTestId('discard-guard');
    // Escape again answers the question (keep editing), and only it.
    escape();
    await waitFor(() => expect(screen.queryByTestId('discard-guard')).toBeNull());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(emails.value).toBe('a@sakura.co.jp\nb@sakura.co.jp');

    fireEvent.click(form.getByRole('button', { name: 'Cancel' }));
    await screen.findByTestId('discard-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  });

  it('names the addresses a refusal is about: repeated ones before sending, unregistered ones from the server', async () => {
    mockFetch((method, url) =>
      method === 'POST' && url.pathname === '/v1/users/invitations'
        ? {
            status: 400,
            body: {
              error: {
                code: 'unregistered_emails',
                message: 'Unregistered email(s) detected. Please only input email that is already registered.',
                params: { emails: 'ghost@sakura.co.jp' },
              },
            },
          }
        : undefined,
    );
    await renderWithProviders(<InviteUsersDialog opened onClose={vi.fn()} onInvited={vi.fn()} />, {
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    const form = within(await screen.findByTestId('invite-form'));
    const emails = form.getByRole('textbox', { name: /^Email/ });
    fireEvent.change(form.getByRole('combobox'), { target: { value: 'viewer' } });

    fireEvent.change(emails, { target: { value: 'a@sakura.co.jp\nb@sakura.co.jp, A@sakura.co.jp' } });
    fireEvent.click(form.getByRole('button', { name: 'Invite' }));
    expect((await screen.findByTestId('invite-offending')).textContent).toBe('The addresses concerned: A@sakura.co.jp');

    fireEvent.change(emails, { target: { value: 'a@sakura.co.jp\nghost@sakura.co.jp' } });
    fireEvent.click(form.getByRole('button', { name: 'Invite' }));
    expect(
      await form.findByText('Unregistered email(s) detected. Please only input email that is already registered.'),
    ).toBeTruthy();
    expect(screen.getByTestId('invite-offending').textContent).toBe('The addresses concerned: ghost@sakura.co.jp');
  });
});
