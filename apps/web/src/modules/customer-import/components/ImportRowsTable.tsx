import { Button, Table, Text } from '@mantine/core';
import type { TImportRow } from '@yado/contracts/customer-imports';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importRowsQuery } from '../api/importCalls';
import { fieldKey } from '../../../lib/i18n/fieldKey';

/** The failed or the identical rows of a reviewed import, by row number, 50 at a time. */
export function ImportRowsTable({ importId, outcome }: { importId: string; outcome: 'failed' | 'identical' }) {
  const { t } = useTranslation();
  const [pages, setPages] = useState<number[]>([0]);
  const results = useQueries({ queries: pages.map((after) => importRowsQuery(importId, outcome, after)) });
  const rows = results.flatMap((r) => r.data?.items ?? []);
  const last = results[results.length - 1]?.data;

  const reason = (row: TImportRow) => {
    if (row.outcome === 'duplicate') return t('customer_import.review.same_as_row', { row: row.duplicateOf });
    if (row.outcome === 'unchanged') return t('customer_import.review.same_as_customer');
    return row.problems
      .map((p) => {
        const text = `${t(`customer_import.fields.${fieldKey(p.field)}`)}: ${t(`errors.${p.code}`, { defaultValue: p.message })}`;
        return row.duplicateOf ? `${text} ${t('customer_import.review.earlier_row', { row: row.duplicateOf })}` : text;
      })
      .join(' / ');
  };

  if (results.every((r) => r.isSuccess) && rows.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="md">
        {t(outcome === 'failed' ? 'customer_import.review.none_failed' : 'customer_import.review.none_identical')}
      </Text>
    );
  }
  return (
    <>
      <Table withTableBorder striped fz="sm" data-testid={`import-rows-${outcome}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={70}>{t('customer_import.review.row')}</Table.Th>
            <Table.Th>{t('customer_import.review.name')}</Table.Th>
            <Table.Th>{t('customer_import.review.phone')}</Table.Th>
            <Table.Th>{t('customer_import.review.reason')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.row} data-testid="import-row">
              <Table.Td>{row.row}</Table.Td>
              <Table.Td>{[row.lastName, row.firstName].filter(Boolean).join(' ')}</Table.Td>
              <Table.Td>{row.phone}</Table.Td>
              <Table.Td>{reason(row)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {last?.nextAfter != null && (
        <Button variant="subtle" mt="xs" onClick={() => setPages((p) => [...p, last.nextAfter as number])}>
          {t('customer_import.review.more')}
        </Button>
      )}
    </>
  );
}
