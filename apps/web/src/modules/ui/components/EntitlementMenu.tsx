import { Paper, UnstyledButton } from '@mantine/core';
import type { TEntitlement } from '@yado/contracts/entitlements';
import {
  cloneElement,
  useCallback,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import classes from './EntitlementMenu.module.css';

/** The shared dropdown option of spec section 3. */
export interface TDropdownOption<TData = unknown> {
  id: string;
  label: string;
  icon?: ReactNode;
  data?: TData;
  hidden?: boolean;
  disabled?: boolean;
  /** The option shows only when this entitlement is granted. */
  entitlement?: TEntitlement;
  color?: string;
}

export function visibleOptions<TData>(
  options: readonly TDropdownOption<TData>[],
  entitlements: Partial<Record<TEntitlement, boolean>>,
): TDropdownOption<TData>[] {
  return options.filter((o) => !o.hidden && (o.entitlement === undefined || entitlements[o.entitlement] === true));
}

export type TMenuPosition = 'bottom-end' | 'bottom-start' | 'top-start' | 'top-end';

export interface TEntitlementMenuProps<TData> {
  /** The element that opens the menu; it receives onClick and the ARIA attributes. */
  target: ReactElement<Record<string, unknown>>;
  options: readonly TDropdownOption<TData>[];
  entitlements: Partial<Record<TEntitlement, boolean>>;
  onSelect: (option: TDropdownOption<TData>) => void;
  position?: TMenuPosition;
  width?: number;
}

const GAP = 6;

function placement(rect: DOMRect, position: TMenuPosition, width: number): CSSProperties {
  const vertical: CSSProperties = position.startsWith('top')
    ? { bottom: window.innerHeight - rect.top + GAP }
    : { top: rect.bottom + GAP };
  const left = position.endsWith('start') ? rect.left : rect.right - width;
  return { ...vertical, left: Math.max(8, Math.min(left, window.innerWidth - width - 8)), width };
}

let menuCounter = 0;

/**
 * A dropdown that leaves out options whose entitlement is false; it opens and closes on click of
 * its target and closes on an outside click or Escape (spec section 4). Deliberately small: it
 * sits in the shell's first download, where a positioning engine would cost more than the page.
 */
export function EntitlementMenu<TData>({
  target,
  options,
  entitlements,
  onSelect,
  position = 'bottom-end',
  width = 220,
}: TEntitlementMenuProps<TData>) {
  const [opened, setOpened] = useState(false);
  const [style, setStyle] = useState<CSSProperties>({});
  const [id] = useState(() => `entitlement-menu-${(menuCounter += 1)}`);
  const targetRef = useRef<HTMLElement | null>(null);
  const dropdownRef = useRef<HTMLDivElement | null>(null);
  const shown = visibleOptions(options, entitlements);

  const close = useCallback(() => setOpened(false), []);
  useEffect(() => {
    if (!opened) return;
    dropdownRef.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
    const onPointerDown = (event: Event) => {
      const node = event.target as Node;
      if (!targetRef.current?.contains(node) && !dropdownRef.current?.contains(node)) close();
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('touchstart', onPointerDown);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('touchstart', onPointerDown);
      window.removeEventListener('resize', close);
    };
  }, [opened, close]);

  const toggle = (event: { currentTarget: unknown }) => {
    const element = event.currentTarget as HTMLElement;
    targetRef.current = element;
    if (!opened) setStyle(placement(element.getBoundingClientRect(), position, width));
    setOpened((o) => !o);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      close();
      targetRef.current?.focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const items = [...(dropdownRef.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = event.key === 'ArrowDown' ? index + 1 : index - 1;
    items[(next + items.length) % items.length]?.focus();
  };

  return (
    <>
      {cloneElement(target, {
        onClick: toggle,
        'aria-haspopup': 'menu',
        'aria-expanded': opened,
        'aria-controls': opened ? id : undefined,
      })}
      {opened &&
        createPortal(
          <Paper
            ref={dropdownRef}
            id={id}
            role="menu"
            shadow="md"
            withBorder
            radius="md"
            p={4}
            className={classes.dropdown}
            style={style}
            onKeyDown={onKeyDown}
          >
            {shown.map((option) => (
              <UnstyledButton
                key={option.id}
                role="menuitem"
                className={classes.item}
                disabled={option.disabled}
                data-option={option.id}
                c={option.color}
                onClick={() => {
                  close();
                  onSelect(option);
                }}
              >
                {option.icon && <span className={classes.icon}>{option.icon}</span>}
                <span>{option.label}</span>
              </UnstyledButton>
            ))}
          </Paper>,
          document.body,
        )}
    </>
  );
}
