import { Group, TextInput } from '@mantine/core';
import { tagText } from '@yado/contracts/templates';
import { useRef } from 'react';
import { TagMenu } from './TagMenu';

export interface TTaggedTextInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  maxLength?: number;
  name?: string;
  placeholder?: string;
}

/** A one-line text that may hold personal tags, written `{{key|fallback}}` where the cursor is. */
export function TaggedTextInput({
  label,
  value,
  onChange,
  disabled = false,
  maxLength = 300,
  name,
  placeholder,
}: TTaggedTextInputProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <TextInput
      ref={input}
      name={name}
      placeholder={placeholder}
      label={
        <Group gap={4} wrap="nowrap" component="span" justify="space-between" w="100%">
          <span>{label}</span>
        </Group>
      }
      rightSectionWidth={36}
      rightSection={
        <TagMenu
          compact
          disabled={disabled}
          onInsert={(key, fallback) => {
            const element = input.current;
            const at = element?.selectionStart ?? value.length;
            const end = element?.selectionEnd ?? at;
            const tag = tagText(key, fallback || undefined);
            onChange(`${value.slice(0, at)}${tag}${value.slice(end)}`);
            requestAnimationFrame(() => {
              element?.focus();
              element?.setSelectionRange(at + tag.length, at + tag.length);
            });
          }}
        />
      }
      value={value}
      disabled={disabled}
      maxLength={maxLength}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
