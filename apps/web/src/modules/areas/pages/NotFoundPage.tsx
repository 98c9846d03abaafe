import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" data-testid="not-found">
        <Title order={1} c="orange.6" fz={64}>
          {t('not_found.code')}
        </Title>
        <Text fw={600} size="lg">
          {t('errors.not_found')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('not_found.message')}
        </Text>
        <Button component={Link} to="/" variant="light" mt="sm">
          {t('not_found.back_home')}
        </Button>
      </Stack>
    </Center>
  );
}
