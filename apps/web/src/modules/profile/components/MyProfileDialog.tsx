import { Badge, Divider, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { TMe } from '@yado/contracts/auth';
import { useTranslation } from 'react-i18next';
import { roleBadgeColor } from '../../switch-role/switchRole';

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
        {value ? value : '-'}
      </Text>
    </Stack>
  );
}

/** Spec section 2, "My profile dialog". */
export function MyProfileDialog({ me, opened, onClose }: { me: TMe; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('profile.title')}
      size={520}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="my-profile-dialog"
    >
      <Stack gap="md">
        <SimpleGrid cols={2} spacing="md">
          <Field label={t('profile.full_name')} value={me.fullName} />
          <Field label={t('profile.nickname')} value={me.nickName} />
          <Field label={t('profile.email')} value={me.email} />
          <Field label={t('profile.phone_number')} value={me.phoneNumber} />
        </SimpleGrid>
        {me.hostAddress && (
          <>
            <Divider />
            <Field label={t('profile.address')} value={me.hostAddress} />
            {me.hostRole && (
              <Stack gap={4}>
                <Text size="xs" c="dimmed">
                  {t('profile.original_environment')}
                </Text>
                <Group gap="xs">
                  <Text size="sm" fw={500}>
                    {me.hostRole.hostName}
                  </Text>
                  <Badge color={roleBadgeColor(me.hostRole.role)} variant="light" size="sm">
                    {t(`roles.${me.hostRole.level}.${me.hostRole.role}`)}
                  </Badge>
                </Group>
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Modal>
  );
}
