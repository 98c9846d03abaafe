import { Avatar, Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { TAssignableRole } from '@yado/contracts/auth';
import { IconCheck, IconCrown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates/formatDate';
import { currentLanguage } from '../../../i18n/i18n';
import { roleBadgeColor } from '../switchRole';
import classes from './RoleRow.module.css';

export const ROLE_ROW_HEIGHT = 58;

export function RoleRow({
  role,
  disabled,
  onSelect,
}: {
  role: TAssignableRole;
  disabled: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const showBrand = (role.level === 'hotel' || role.level === 'hotel_group') && !role.isDefault && role.brandName;
  return (
    <UnstyledButton
      className={classes.row}
      h={ROLE_ROW_HEIGHT}
      onClick={role.isSelected || disabled ? undefined : onSelect}
      disabled={role.isSelected}
      data-selected={role.isSelected || undefined}
      aria-current={role.isSelected ? 'true' : undefined}
      data-testid="role-row"
      data-slug={role.slug}
      data-role={role.role}
    >
      <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        {role.level === 'grand_user' ? (
          <Avatar radius="md" size={36} color="orange" variant="filled" aria-hidden>
            <IconCrown size={20} />
          </Avatar>
        ) : (
          <Avatar radius="md" size={36} color="gray" aria-hidden>
            {role.username.charAt(0)}
          </Avatar>
        )}
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate="end">
            {role.username}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {showBrand ? `${role.brandName} · ` : ''}
            {t('switch_role.created', { date: formatDate(role.createdDate, currentLanguage()) })}
          </Text>
        </Stack>
      </Group>
      <Group gap={6} wrap="nowrap">
        {role.isDefault && (
          <Badge variant="outline" color="gray" size="sm">
            {t('switch_role.default_badge')}
          </Badge>
        )}
        <Badge color={roleBadgeColor(role.role)} variant="light" size="sm">
          {t(`roles.${role.level}.${role.role}`)}
        </Badge>
        {role.isSelected && (
          <IconCheck size={18} color="var(--mantine-color-orange-6)" aria-label={t('switch_role.current')} />
        )}
      </Group>
    </UnstyledButton>
  );
}
