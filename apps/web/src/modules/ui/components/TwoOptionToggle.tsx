import { SegmentedControl } from '@mantine/core';

export interface TTwoOptionToggleProps<T extends string> {
  options: readonly [{ value: T; label: string }, { value: T; label: string }];
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
  ariaLabel?: string;
}

/** Two options; a click switches to the other one unless disabled (spec section 4). */
export function TwoOptionToggle<T extends string>({
  options,
  value,
  onChange,
  disabled,
  ariaLabel,
}: TTwoOptionToggleProps<T>) {
  return (
    <SegmentedControl
      aria-label={ariaLabel}
      size="xs"
      radius="xl"
      disabled={disabled}
      value={value}
      onChange={(next) => {
        if (!disabled) onChange(next as T);
      }}
      data={options.map((o) => ({ value: o.value, label: o.label }))}
    />
  );
}
