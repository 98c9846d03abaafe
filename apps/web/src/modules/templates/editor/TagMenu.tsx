import { ActionIcon, Button, Menu, TextInput } from '@mantine/core';
import { PERSONAL_TAG_KEYS, type TPersonalTagKey } from '@yado/contracts/templates';
import { IconUserScan } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface TTagMenuProps {
  onInsert: (key: TPersonalTagKey, fallback: string) => void;
  /** A small icon (toolbars) or a labelled button (beside a field). */
  compact?: boolean;
  disabled?: boolean;
}

/** Personal tags from a menu, each with a fallback for guests without the value. */
export function TagMenu({ onInsert, compact = false, disabled = false }: TTagMenuProps) {
  const { t } = useTranslation();
  const [fallback, setFallback] = useState('');
  const label = t('templates.tags.insert');
  return (
    <Menu position="bottom-start" withinPortal closeOnItemClick shadow="md" width={260} disabled={disabled}>
      <Menu.Target>
        {compact ? (
          <ActionIcon
            title={label}
            variant="subtle"
            color="gray"
            aria-label={label}
            disabled={disabled}
            data-testid="tag-menu"
          >
            <IconUserScan size={18} />
          </ActionIcon>
        ) : (
          <Button
            variant="subtle"
            size="compact-xs"
            leftSection={<IconUserScan size={14} />}
            disabled={disabled}
            data-testid="tag-menu"
          >
            {label}
          </Button>
        )}
      </Menu.Target>
      <Menu.Dropdown>
        <TextInput
          size="xs"
          m={6}
          label={t('templates.tags.fallback')}
          description={t('templates.tags.fallback_hint')}
          value={fallback}
          maxLength={200}
          onChange={(event) => setFallback(event.currentTarget.value.replace(/[{}|]/g, ''))}
          onKeyDown={(event) => event.stopPropagation()}
        />
        <Menu.Divider />
        {PERSONAL_TAG_KEYS.map((key) => (
          <Menu.Item key={key} onClick={() => onInsert(key, fallback.trim())} data-tag={key}>
            {t(`templates.tags.names.${key}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
