import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 1000;

export interface TSearchInputProps {
  /** Called with the trimmed text once typing has paused for `debounceMs`. */
  onSearch: (text: string) => void;
  placeholder?: string;
  ariaLabel?: string;
  debounceMs?: number;
  /** The search already applied when the box appears (a list coming back to its filters). */
  initialText?: string;
  /** Changing this key clears the text (e.g. when a dialog reopens). */
  resetKey?: unknown;
  autoFocus?: boolean;
}

/** Search box: Enter is ignored, the search runs after a 1,000 ms pause (spec section 5). */
export function SearchInput({
  onSearch,
  placeholder,
  ariaLabel,
  debounceMs = SEARCH_DEBOUNCE_MS,
  initialText = '',
  resetKey,
  autoFocus,
}: TSearchInputProps) {
  const [text, setText] = useState(initialText);
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;
  const lastSent = useRef(initialText);
  const first = useRef(true);
  const appliedResetKey = useRef(resetKey);

  useEffect(() => {
    if (Object.is(appliedResetKey.current, resetKey)) return;
    appliedResetKey.current = resetKey;
    setText('');
    lastSent.current = '';
  }, [resetKey]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const value = text.trim();
    const timer = setTimeout(() => {
      if (value === lastSent.current) return;
      lastSent.current = value;
      onSearchRef.current(value);
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [text, debounceMs]);

  return (
    <TextInput
      type="search"
      value={text}
      placeholder={placeholder}
      aria-label={ariaLabel ?? placeholder}
      leftSection={<IconSearch size={16} />}
      autoFocus={autoFocus}
      onChange={(event) => setText(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.preventDefault();
      }}
    />
  );
}
