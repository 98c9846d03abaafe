import { NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { staticSegmentChoicesQuery } from '../api/segmentsCalls';

/** Step three of the customer import: a static segment the imported customers join, or none. */
export function ImportSegmentChoice({ value, onChange }: { value: string; onChange: (segmentId: string) => void }) {
  const { t } = useTranslation();
  const segments = useQuery(staticSegmentChoicesQuery(''));
  return (
    <Stack gap={6} data-testid="import-segment">
      <Title order={3} size="h5">
        {t('segmentation.import.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('segmentation.import.help')}
      </Text>
      <NativeSelect
        aria-label={t('segmentation.import.title')}
        name="segmentId"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        data={[
          { value: '', label: t('segmentation.import.none') },
          ...(segments.data ?? []).map((s) => ({ value: s.id, label: s.name })),
        ]}
        maw={420}
      />
    </Stack>
  );
}
