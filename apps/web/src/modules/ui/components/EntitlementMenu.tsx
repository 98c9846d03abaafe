import { Menu } from '@mantine/core';
import type { TEntitlement } from '@yado/contracts';
import type { ReactElement, ReactNode } from 'react';

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

export interface TEntitlementMenuProps<TData> {
  target: ReactElement;
  options: readonly TDropdownOption<TData>[];
  entitlements: Partial<Record<TEntitlement, boolean>>;
  onSelect: (option: TDropdownOption<TData>) => void;
  position?: 'bottom-end' | 'bottom-start' | 'top-start' | 'top-end' | 'right-end';
  width?: number;
}

/**
 * A dropdown that leaves out options whose entitlement is false; it opens and closes on click
 * and closes on an outside click (spec section 4).
 */
export function EntitlementMenu<TData>({
  target,
  options,
  entitlements,
  onSelect,
  position = 'bottom-end',
  width = 220,
}: TEntitlementMenuProps<TData>) {
  const shown = visibleOptions(options, entitlements);
  return (
    <Menu position={position} width={width} shadow="md" withinPortal closeOnClickOutside>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {shown.map((option) => (
          <Menu.Item
            key={option.id}
            leftSection={option.icon}
            disabled={option.disabled}
            color={option.color}
            onClick={() => onSelect(option)}
            data-option={option.id}
          >
            {option.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
