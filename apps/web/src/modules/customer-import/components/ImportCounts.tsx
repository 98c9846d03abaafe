import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { TImportCounts } from '@yado/contracts/customer-imports';
import { useTranslation } from 'react-i18next';

/** What the review found: new, updated, identical (repeats and unchanged) and failed rows. */
export function ImportCounts({ counts }: { counts: TImportCounts }) {
  const { t } = useTranslation();
  const tiles = [
    { key: 'total', value: counts.total, color: undefined },
    { key: 'new', value: counts.new, color: 'teal' },
    { key: 'updated', value: counts.updated, color: 'blue' },
    { key: 'identical', value: counts.unchanged + counts.duplicates, color: 'gray' },
    { key: 'failed', value: counts.failed, color: counts.failed ? 'red' : undefined },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }} mb="md">
      {tiles.map((tile) => (
        <Paper key={tile.key} withBorder radius="md" p="sm" data-testid={`import-count-${tile.key}`}>
          <Text size="xs" c="dimmed">
            {t(`customer_import.review.${tile.key}`)}
          </Text>
          <Text size="xl" fw={700} c={tile.color}>
            {tile.value.toLocaleString()}
          </Text>
          {tile.key === 'identical' && (
            <Text size="xs" c="dimmed">
              {t('customer_import.review.unchanged')} {counts.unchanged.toLocaleString()} /{' '}
              {t('customer_import.review.duplicates')} {counts.duplicates.toLocaleString()}
            </Text>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
