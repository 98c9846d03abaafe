import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useProfile } from '../../shell/hooks/useProfile';
import { AREAS, canSeeArea, startAddressFor } from '../../shell/navigation';
import { roleBadgeColor } from '../../switch-role/switchRole';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';

/**
 * The dashboard until its issue lands: who and where the user is acting (real profile data) and
 * "not available yet" for the statistics. The granduser has no dashboard and is sent on.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const me = useProfile();
  if (!canSeeArea(AREAS.dashboard, me.entitlements)) {
    return <Navigate to={startAddressFor(me.entitlements, me.features)} replace />;
  }
  return (
    <>
      <PageHeader title={t('nav.dashboard')} description={t('dashboard.window')} />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {me.entitlements['dashboard.read_level_info'] && (
          <Paper withBorder radius="md" p="lg" data-testid="level-info">
            <Stack gap={6}>
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
            </Stack>
          </Paper>
        )}
        <Paper withBorder radius="md" p="lg" style={{ gridColumn: 'span 2' }}>
          <EmptyState title={t('areas.not_available.title')} description={t('dashboard.not_available')} />
        </Paper>
      </SimpleGrid>
    </>
  );
}
