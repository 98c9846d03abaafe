import { Button, type ButtonProps } from '@mantine/core';
import { useRef, useState, type MouseEvent, type ReactNode } from 'react';

export interface TLockButtonProps extends ButtonProps {
  children: ReactNode;
  type?: 'button' | 'submit';
  /** Ignore further presses until the press's work (the promise onClick returns) settles. */
  lockOnClick?: boolean;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => unknown;
  form?: string;
}

/** A button whose presses are ignored while disabled or locked after a press (spec section 4). */
export function LockButton({
  lockOnClick = false,
  onClick,
  disabled,
  loading,
  type = 'button',
  ...rest
}: TLockButtonProps) {
  const locked = useRef(false);
  const [busy, setBusy] = useState(false);
  const handle = (event: MouseEvent<HTMLButtonElement>) => {
    if (disabled || locked.current) {
      event.preventDefault();
      return;
    }
    const result = onClick?.(event);
    if (lockOnClick) {
      locked.current = true;
      setBusy(true);
      void Promise.resolve(result).finally(() => {
        locked.current = false;
        setBusy(false);
      });
    }
  };
  return <Button {...rest} type={type} disabled={disabled} loading={loading || busy} onClick={handle} />;
}
