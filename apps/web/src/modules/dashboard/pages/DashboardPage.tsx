import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconFileImport, IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
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
        {me.entitlements['dashboard.read_quick_actions'] && (
          <Paper withBorder radius="md" p="lg" data-testid="quick-actions">
            <Stack gap="sm">
              <Text size="xs" c="dimmed">
                {t('dashboard.quick_actions.title')}
              </Text>
              {me.entitlements['campaign.create'] && (
                <Button component={Link} to="/campaign" variant="light" leftSection={<IconSpeakerphone size={16} />}>
                  {t('dashboard.quick_actions.create_campaign')}
                </Button>
              )}
              {me.entitlements['customer.create'] && (
                <Button component={Link} to="/customer-list" variant="light" leftSection={<IconFileImport size={16} />}>
                  {t('dashboard.quick_actions.import_customers')}
                </Button>
              )}
            </Stack>
          </Paper>
        )}
        <Paper withBorder radius="md" p="lg" style={{ gridColumn: '1 / -1' }}>
          <EmptyState title={t('areas.not_available.title')} description={t('dashboard.not_available')} />
        </Paper>
      </SimpleGrid>
    </>
  );
}
