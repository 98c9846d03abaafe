import { ColorInput, Input, SegmentedControl, Slider, TextInput } from '@mantine/core';
import { BLOCK_ALIGNS, isSafeHref } from '@yado/contracts/templates';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * Text typed into a field that goes into the document only when valid (a half-typed link or
 * colour would make the template unsavable); undo and redo show the document's value again.
 */
function useCommitted(value: string, isValid: (text: string) => boolean, commit: (text: string) => void) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);
  const change = (next: string) => {
    setText(next);
    if (isValid(next) && next !== committed.current) {
      committed.current = next;
      commit(next);
    }
  };
  return { text, change, valid: isValid(text) };
}

export function HrefField({
  label,
  value,
  onChange,
  disabled,
}: {
  label: string;
  value: string | null | undefined;
  onChange: (href: string | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const field = useCommitted(
    value ?? '',
    (text) => text.trim() === '' || isSafeHref(text.trim()),
    (text) => onChange(text.trim() === '' ? null : text.trim()),
  );
  return (
    <TextInput
      label={label}
      placeholder={t('templates.fields.link_placeholder')}
      value={field.text}
      disabled={disabled}
      error={field.valid ? null : t('templates.errors.invalid_link')}
      onChange={(event) => field.change(event.currentTarget.value)}
      data-testid="href-field"
    />
  );
}

export function ColorField({
  label,
  value,
  onChange,
  disabled,
  clearable = false,
}: {
  label: string;
  value: string | null | undefined;
  onChange: (color: string | null) => void;
  disabled?: boolean;
  clearable?: boolean;
}) {
  const { t } = useTranslation();
  const field = useCommitted(
    value ?? '',
    (text) => HEX.test(text) || (clearable && text === ''),
    (text) => onChange(text === '' ? null : text.toLowerCase()),
  );
  return (
    <ColorInput
      label={label}
      format="hex"
      value={field.text}
      disabled={disabled}
      placeholder={clearable ? t('templates.fields.no_color') : undefined}
      error={field.valid ? null : t('templates.errors.invalid_color')}
      onChange={field.change}
      swatches={[
        '#ffffff',
        '#f4f4f4',
        '#222222',
        '#1c7ed6',
        '#2f9e44',
        '#c92a2a',
        '#f08c00',
        '#8b5a2b',
        '#e7d7c1',
        '#0b3d2e',
      ]}
    />
  );
}

/** A whole number in a range, on a slider (the value shows beside the label). */
export function NumberField({
  label,
  value,
  min,
  max,
  onChange,
  disabled,
  suffix = '',
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (n: number) => void;
  disabled?: boolean;
  suffix?: string;
}) {
  return (
    <Input.Wrapper label={`${label}: ${value}${suffix}`}>
      <Slider
        mt={6}
        min={min}
        max={max}
        step={1}
        value={value}
        disabled={disabled}
        label={(n) => `${n}${suffix}`}
        thumbLabel={label}
        onChange={(n) => onChange(Math.round(n))}
      />
    </Input.Wrapper>
  );
}

/** One of a few choices side by side (thickness, columns, alignment). */
export function ChoiceField<V extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  value: V;
  options: { value: V; label: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <Input.Wrapper label={label}>
      <SegmentedControl
        fullWidth
        mt={4}
        disabled={disabled}
        value={value}
        onChange={(next) => onChange(next as V)}
        data={options}
        data-testid={testId}
      />
    </Input.Wrapper>
  );
}

export function AlignField({
  value,
  onChange,
  disabled,
}: {
  value: (typeof BLOCK_ALIGNS)[number];
  onChange: (align: (typeof BLOCK_ALIGNS)[number]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ChoiceField
      label={t('templates.fields.align')}
      value={value}
      options={BLOCK_ALIGNS.map((align) => ({ value: align, label: t(`templates.align.${align}`) }))}
      onChange={onChange}
      disabled={disabled}
    />
  );
}
