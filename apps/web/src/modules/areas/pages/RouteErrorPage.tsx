import { Button, Center, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** What a route shows when it fails to load or render (e.g. a chunk lost after a deploy). */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" role="alert">
        <Text fw={600}>{t('errors.general')}</Text>
        <Button variant="light" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      </Stack>
    </Center>
  );
}
