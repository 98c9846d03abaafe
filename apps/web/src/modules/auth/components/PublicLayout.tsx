import { Box, Group, Paper, Text, Title } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '../../ui/components/LanguageToggle';
import classes from './PublicLayout.module.css';

/** The frame of the pages reachable without signing in. */
export function PublicLayout() {
  const { t } = useTranslation();
  // The unsubscribe page is a guest's, from a brand's mail: it shows the brand, not the product.
  const forGuest = useLocation().pathname === '/unsubscribe';
  return (
    <Box className={classes.page}>
      <Group justify="flex-end" p="md">
        <LanguageToggle />
      </Group>
      <Box className={classes.center}>
        <Paper className={classes.card} withBorder shadow="sm" radius="md" p="xl">
          {!forGuest && (
            <Group gap={8} mb="lg" justify="center">
              <Box className={classes.logo} aria-hidden />
              <Title order={3} className={classes.brand}>
                {t('common.app_name')}
              </Title>
            </Group>
          )}
          <Outlet />
        </Paper>
        {!forGuest && (
          <Text size="xs" c="dimmed" mt="md" ta="center">
            {t('common.tagline')}
          </Text>
        )}
      </Box>
    </Box>
  );
}
