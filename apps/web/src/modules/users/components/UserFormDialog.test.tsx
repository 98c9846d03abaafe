import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { UserFormDialog } from './UserFormDialog';

const created = {
  id: 'u9',
  fullName: 'Ken Mori',
  firstName: 'Ken',
  lastName: 'Mori',
  nickName: 'Ken',
  email: 'ken@sakura.co.jp',
  phoneNumber: '0312345678',
  role: 'staff',
  roleName: 'Hotel Staff',
  status: 'active',
  origin: 'original',
  canChangeStatus: true,
  hasPassword: false,
  createdAt: '2026-01-01T00:00:00Z',
};

function serve(registered: string[]) {
  return mockFetch((method, url) => {
    if (url.pathname === '/v1/auth/exist')
      return { body: { data: { exist: registered.includes(url.searchParams.get('email') ?? '') } } };
    if (url.pathname === '/v1/users' && method === 'POST') return { body: { data: created } };
    return undefined;
  });
}

async function open(onSaved = vi.fn()) {
  await renderWithProviders(<UserFormDialog opened onClose={() => {}} onSaved={onSaved} />, {
    queryClient: signedInClient(profileFixture('hotel', 'admin')),
  });
  return within(await screen.findByTestId('user-form'));
}

const type = (form: ReturnType<typeof within>, name: string, value: string) =>
  fireEvent.change(
    form.getByRole(name === 'role' ? 'combobox' : 'textbox', name === 'role' ? {} : { name: new RegExp(`^${name}`) }),
    {
      target: { value },
    },
  );

describe('UserFormDialog', () => {
  it('shows the specification messages for an empty form and sends nothing', async () => {
    const calls = serve([]);
    const form = await open();
    fireEvent.click(form.getByRole('button', { name: 'Add and send invitation' }));
    expect(await form.findByText('Email Address is required')).toBeTruthy();
    expect(form.getByText('Role is required')).toBeTruthy();
    expect(form.getAllByText('This field is required to fill.')).toHaveLength(3);
    type(form, 'Email', 'ken@');
    fireEvent.click(form.getByRole('button', { name: 'Add and send invitation' }));
    expect(await form.findByText('Please enter a valid email')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says an email is already registered once typing pauses', async () => {
    const calls = serve(['hanako@demo.jp']);
    const form = await open();
    type(form, 'Email', 'hanako@demo.co');
    type(form, 'Email', 'hanako@demo.jp');
    expect(await form.findByText(/already registered/, {}, { timeout: 2000 })).toBeTruthy();
    // Only the paused value was asked about.
    expect(
      calls.filter((c) => c.url.pathname === '/v1/auth/exist').map((c) => c.url.searchParams.get('email')),
    ).toEqual(['hanako@demo.jp']);
  });

  it('adds a user with the chosen role and language', async () => {
    const calls = serve([]);
    const onSaved = vi.fn();
    const form = await open(onSaved);
    type(form, 'Full name', 'Ken Mori');
    type(form, 'Nickname', 'Ken');
    type(form, 'Email', 'ken@sakura.co.jp');
    type(form, 'Phone number', '03-1234-5678');
    fireEvent.change(form.getAllByRole('combobox')[0]!, { target: { value: 'staff' } });
    fireEvent.click(form.getByRole('button', { name: 'Add and send invitation' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.init.body))).toEqual({
      fullName: 'Ken Mori',
      nickName: 'Ken',
      email: 'ken@sakura.co.jp',
      phoneNumber: '03-1234-5678',
      role: 'staff',
      language: 'en',
    });
  });

  it('asks before Escape (or Cancel) drops an edit not saved, and keeps it when asked to', async () => {
    serve([]);
    const onClose = vi.fn();
    await renderWithProviders(<UserFormDialog opened user={created as never} onClose={onClose} onSaved={vi.fn()} />, {
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    const form = within(await screen.findByTestId('user-form'));
    const fullName = form.getByRole('textbox', { name: /^Full name/ }) as HTMLInputElement;
    expect(fullName.value).toBe('Ken Mori');
    const escape = () => fireEvent.keyDown(document.body, { key: 'Escape' });

    // Nothing typed: Escape closes at once.
    escape();
    expect(onClose).toHaveBeenCalledTimes(1);

    type(form, 'Full name', 'Kenji Mori');
    escape();
    await screen.findByTestId('discard-guard');
    expect(onClose).toHaveBeenCalledTimes(1);
    // Escape again answers the question (keep editing), and only it.
    escape();
    await waitFor(() => expect(screen.queryByTestId('discard-guard')).toBeNull());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(fullName.value).toBe('Kenji Mori');

    fireEvent.click(form.getByRole('button', { name: 'Cancel' }));
    await screen.findByTestId('discard-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByTestId('discard-guard')).toBeNull());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(fullName.value).toBe('Kenji Mori');

    escape();
    await screen.findByTestId('discard-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  });
});
