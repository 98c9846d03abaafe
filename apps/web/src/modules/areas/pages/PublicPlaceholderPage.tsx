import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Public pages of spec section 2 whose issues have not landed yet. */
export function PublicPlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" ta="center" data-testid="area-not-available">
      <Title order={2} size="h3">
        {t(titleKey)}
      </Title>
      <Text size="sm" c="dimmed">
        {t('areas.not_available.message')}
      </Text>
    </Stack>
  );
}
