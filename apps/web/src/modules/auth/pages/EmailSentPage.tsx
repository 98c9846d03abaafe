import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

export function EmailSentPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const email = (params.get('email') ?? '').trim();
  return (
    <Stack gap="md" align="center" ta="center">
      <ThemeIcon size={56} radius="xl" variant="light" color="teal">
        <IconMailCheck size={30} />
      </ThemeIcon>
      <Title order={2} size="h3">
        {t('auth.email_sent.title')}
      </Title>
      <Text size="sm">{email ? t('auth.email_sent.message_with_email', { email }) : t('auth.email_sent.message')}</Text>
      <Text size="xs" c="dimmed">
        {t('auth.email_sent.hint')}
      </Text>
      <Button component={Link} to="/login" variant="light" fullWidth>
        {t('auth.back_to_login')}
      </Button>
    </Stack>
  );
}
