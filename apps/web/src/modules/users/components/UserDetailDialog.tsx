import { Badge, Group, Modal, Stack, Table, Text } from '@mantine/core';
import type { TUser } from '@yado/contracts/users';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates/formatDate';
import { useProfile } from '../../shell/hooks/useProfile';
import { UserStatusBadge } from './UserStatusBadge';

/** A user's details at the acting host (spec section 3, "User"). */
export function UserDetailDialog({ user, onClose }: { user: TUser | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const me = useProfile();
  const rows: [string, string][] = user
    ? [
        ['full_name', user.fullName],
        ['nick_name', user.nickName ?? '-'],
        ['email', user.email],
        ['phone_number', user.phoneNumber ?? '-'],
        ['role', t(`roles.${me.meta.level}.${user.role}`, { defaultValue: user.roleName })],
        ['created', formatDate(user.createdAt, i18n.language === 'en' ? 'en' : 'ja')],
      ]
    : [];
  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      centered
      size="md"
      title={t('users.detail.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {user && (
        <Stack gap="sm" data-testid="user-detail">
          <Group gap="xs">
            <UserStatusBadge status={user.status} />
            <Badge variant="outline" color="gray">
              {t(`users.origin.${user.origin}`)}
            </Badge>
          </Group>
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              {rows.map(([key, value]) => (
                <Table.Tr key={key}>
                  <Table.Th w={140}>{t(`users.fields.${key}`)}</Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {!user.canChangeStatus && (
            <Text size="xs" c="dimmed">
              {t('users.status.locked')}
            </Text>
          )}
          {!user.hasPassword && (
            <Text size="xs" c="dimmed">
              {t('users.detail.no_password_yet')}
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
