import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconFileImport, IconSpeakerphone } from '@tabler/icons-react';
import type { TEntitlementMap } from '@yado/contracts/entitlements';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Links to the two first things to do; each shows only where the role may do it. */
export function QuickActions({ can }: { can: TEntitlementMap }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg" data-testid="quick-actions">
      <Stack gap="sm">
        <Text size="xs" c="dimmed">
          {t('dashboard.quick_actions.title')}
        </Text>
        {can['campaign.create'] && (
          <Button component={Link} to="/campaign/new" variant="light" leftSection={<IconSpeakerphone size={16} />}>
            {t('dashboard.quick_actions.create_campaign')}
          </Button>
        )}
        {can['customer.import'] && (
          <Button
            component={Link}
            to="/customer-list/import"
            variant="light"
            leftSection={<IconFileImport size={16} />}
          >
            {t('dashboard.quick_actions.import_customers')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
