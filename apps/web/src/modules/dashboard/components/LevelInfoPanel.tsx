import { Avatar, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TMe } from '@yado/contracts/auth';
import { useTranslation } from 'react-i18next';
import { roleBadgeColor } from '../../switch-role/switchRole';
import { levelInfoQuery } from '../api/dashboardCalls';

/**
 * The acting host's information panel. Name and role come with the profile, so they show at once;
 * logo, address and contact, and a group's or brand's hotels follow from the dashboard's call.
 */
export function LevelInfoPanel({ me }: { me: TMe }) {
  const { t } = useTranslation();
  const info = useQuery(levelInfoQuery);
  const host = info.data?.host;
  const none = t('dashboard.level_info.none');
  return (
    <Paper withBorder radius="md" p="lg" data-testid="level-info">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Avatar
          src={host?.logoUrl ?? undefined}
          alt={t('dashboard.level_info.logo_alt', { name: me.meta.hostName })}
          size={56}
          radius="md"
        >
          {me.meta.hostName.slice(0, 1)}
        </Avatar>
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            {t(`dashboard.level_info.${me.meta.level}`)}
          </Text>
          <Text fw={700} size="lg">
            {me.meta.hostName}
          </Text>
          <Group gap={6}>
            <Badge color={roleBadgeColor(me.meta.role)} variant="light">
              {t(`roles.${me.meta.level}.${me.meta.role}`)}
            </Badge>
          </Group>
          {host && (
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" data-testid="level-info-contact">
              <Detail label={t('dashboard.level_info.address')} value={host.address ?? none} />
              <Detail label={t('dashboard.level_info.email')} value={host.email ?? none} />
              <Detail label={t('dashboard.level_info.phone')} value={host.phone ?? none} />
            </SimpleGrid>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Stack>
  );
}

/** A brand's hotel groups and hotels, or a group's hotels. */
export function HostChildrenPanel() {
  const { t } = useTranslation();
  const info = useQuery(levelInfoQuery);
  if (!info.data || info.data.host.level === 'hotel') return null;
  const { host, hotelGroups, hotels } = info.data;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="level-children">
      <Stack gap="md">
        {host.level === 'brand' && (
          <Stack gap={6}>
            <Text fw={600}>{t('dashboard.level_info.hotel_groups')}</Text>
            {hotelGroups.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('dashboard.level_info.no_hotel_groups')}
              </Text>
            ) : (
              hotelGroups.map((g) => (
                <Group key={g.id} justify="space-between" wrap="nowrap" data-testid="level-child-group">
                  <Text size="sm">{g.name}</Text>
                  <Text size="xs" c="dimmed">
                    {t('dashboard.level_info.hotel_count', { count: g.hotelCount })}
                  </Text>
                </Group>
              ))
            )}
          </Stack>
        )}
        <Stack gap={6}>
          <Text fw={600}>{t('dashboard.level_info.hotels')}</Text>
          {hotels.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('dashboard.level_info.no_hotels')}
            </Text>
          ) : (
            hotels.map((h) => (
              <Group key={h.id} justify="space-between" wrap="nowrap" data-testid="level-child-hotel">
                <Text size="sm">{h.name}</Text>
                <Text size="xs" c="dimmed">
                  {h.hotelGroupName ?? h.address ?? ''}
                </Text>
              </Group>
            ))
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
