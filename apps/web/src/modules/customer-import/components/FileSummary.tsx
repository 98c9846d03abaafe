import { Badge, Group, SimpleGrid, Table, Text } from '@mantine/core';
import type { TCustomerImport } from '@yado/contracts/customer-imports';
import { useTranslation } from 'react-i18next';
import { fieldKey } from '../../../lib/i18n/fieldKey';

/** The uploaded file as the server read it: encoding, target hotel and the column mapping. */
export function FileSummary({ item }: { item: TCustomerImport }) {
  const { t } = useTranslation();
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="sm">
        <div>
          <Text size="xs" c="dimmed">
            {t('customer_import.file.name')}
          </Text>
          <Text fw={500}>{item.fileName}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('customer_import.file.encoding')}
          </Text>
          <Text fw={500} data-testid="import-encoding">
            {t(`customer_import.file.encodings.${item.encoding.replace('-', '_')}`)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('customer_import.file.hotel')}
          </Text>
          <Text fw={500}>{item.hotelName ?? t('customer_import.file.no_hotel')}</Text>
        </div>
      </SimpleGrid>
      <Text size="sm" fw={600} mb={4}>
        {t('customer_import.file.columns')}
      </Text>
      <Table withTableBorder striped fz="sm" data-testid="import-columns" mb="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('customer_import.file.column')}</Table.Th>
            <Table.Th>{t('customer_import.file.field')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {item.columns.map((c) => (
            <Table.Tr key={c.column}>
              <Table.Td>{c.header}</Table.Td>
              <Table.Td>
                {c.field ? (
                  <Group gap={4}>{t(`customer_import.fields.${fieldKey(c.field)}`)}</Group>
                ) : (
                  <Badge color="gray" variant="light">
                    {t('customer_import.file.not_imported')}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
