import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { ConfirmDialog } from './ConfirmDialog';
import { EmptyState } from './EmptyState';
import { EntitlementMenu } from './EntitlementMenu';
import { LockButton } from './LockButton';
import { PasswordField } from './PasswordField';
import { SearchInput } from './SearchInput';
import { TwoOptionToggle } from './TwoOptionToggle';

describe('SearchInput', () => {
  it('searches once typing has paused for 1,000 ms and ignores Enter', async () => {
    const onSearch = vi.fn();
    await renderWithProviders(<SearchInput onSearch={onSearch} placeholder="x" />);
    vi.useFakeTimers();
    const input = screen.getByRole('searchbox');
    fireEvent.change(input, { target: { value: 'Kyo' } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    fireEvent.change(input, { target: { value: 'Kyoto ' } });
    const enter = fireEvent.keyDown(input, { key: 'Enter' });
    expect(enter).toBe(false); // default prevented: a surrounding form is not submitted
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(onSearch).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(2));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith('Kyoto');
  });

  it('shows a search already applied without running it again', async () => {
    const onSearch = vi.fn();
    await renderWithProviders(<SearchInput onSearch={onSearch} placeholder="x" initialText="Kyoto" />);
    vi.useFakeTimers();
    const input = screen.getByRole('searchbox');
    expect((input as HTMLInputElement).value).toBe('Kyoto');
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(onSearch).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '' } });
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(onSearch).toHaveBeenCalledWith('');
  });
});

describe('LockButton', () => {
  it('ignores presses while its work runs when lock-on-click is set, and when disabled', async () => {
    let finish: () => void = () => {};
    const onClick = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    await renderWithProviders(
      <>
        <LockButton lockOnClick onClick={onClick}>
          go
        </LockButton>
        <LockButton disabled onClick={onClick}>
          off
        </LockButton>
      </>,
    );
    const [go, off] = screen.getAllByRole('button');
    fireEvent.click(go!);
    fireEvent.click(go!);
    fireEvent.click(off!);
    expect(onClick).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    fireEvent.click(go!);
    expect(onClick).toHaveBeenCalledTimes(2);
  });
});

describe('ConfirmDialog', () => {
  it('enables the confirm button only once the sentence is typed exactly', async () => {
    const onConfirm = vi.fn();
    const sentence = 'I acknowledge that this action cannot be undone.';
    await renderWithProviders(
      <ConfirmDialog
        opened
        title="Stop"
        message="Sure?"
        typedSentence={sentence}
        onConfirm={onConfirm}
        onClose={() => {}}
      />,
    );
    const confirm = (await screen.findByRole('button', { name: 'Confirm' })) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'I acknowledge' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: sentence } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});

describe('EntitlementMenu', () => {
  it('hides options whose entitlement is false and closes on an outside click', async () => {
    const onSelect = vi.fn();
    await renderWithProviders(
      <div>
        <span data-testid="outside">outside</span>
        <EntitlementMenu
          target={<button type="button">open</button>}
          entitlements={{ 'customer.delete': false, 'customer.update': true }}
          onSelect={onSelect}
          options={[
            { id: 'edit', label: 'Edit', entitlement: 'customer.update' },
            { id: 'delete', label: 'Delete', entitlement: 'customer.delete' },
            { id: 'hidden', label: 'Hidden', hidden: true },
          ]}
        />
      </div>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Edit']);
    fireEvent.mouseDown(screen.getByTestId('outside'));
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 'edit' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('TwoOptionToggle', () => {
  it('switches on click unless disabled', async () => {
    const onChange = vi.fn();
    const options = [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ] as const;
    const { rerender } = await renderWithProviders(<TwoOptionToggle options={options} value="a" onChange={onChange} />);
    fireEvent.click(screen.getByLabelText('B'));
    expect(onChange).toHaveBeenCalledWith('b');
    onChange.mockClear();
    rerender(<></>);
    await renderWithProviders(<TwoOptionToggle options={options} value="a" onChange={onChange} disabled />);
    fireEvent.click(screen.getAllByLabelText('B').at(-1)!);
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('PasswordField', () => {
  it('toggles between hidden and visible', async () => {
    await renderWithProviders(<PasswordField label="Password" />);
    const input = screen.getByLabelText('Password');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.mouseDown(screen.getByRole('button', { name: 'Show or hide the password' }));
    expect(input.getAttribute('type')).toBe('text');
  });
});

describe('EmptyState', () => {
  it('tells viewers the area is read-only', async () => {
    await renderWithProviders(<EmptyState readOnly action={<button type="button">Add</button>} />, { language: 'ja' });
    expect(screen.getByText('データがありません')).toBeTruthy();
    expect(screen.getByText(/閲覧のみ可能/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
  });
});
