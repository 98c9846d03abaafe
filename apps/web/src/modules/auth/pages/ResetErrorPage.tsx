import { Anchor, Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** An expired, spent or unknown reset link ends here. */
export function ResetErrorPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" align="center" ta="center">
      <ThemeIcon size={56} radius="xl" variant="light" color="red">
        <IconLinkOff size={30} />
      </ThemeIcon>
      <Title order={2} size="h3">
        {t('auth.reset_error.title')}
      </Title>
      <Text size="sm" data-testid="reset-error-message">
        {t('errors.reset_link_expired')}
      </Text>
      <Button component={Link} to="/forgot-password" fullWidth>
        {t('auth.reset_error.request_new')}
      </Button>
      <Anchor component={Link} to="/login" size="sm">
        {t('auth.back_to_login')}
      </Anchor>
    </Stack>
  );
}
