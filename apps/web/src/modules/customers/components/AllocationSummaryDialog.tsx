import { Badge, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { allocationSummaryQuery } from '../api/customersCalls';

export interface TAllocationSummaryDialogProps {
  customerId: string;
  opened: boolean;
  onClose: () => void;
}

/**
 * Spec section 2: the brand, hotel groups and hotels a customer is allocated to, with booking
 * counts, as far as the acting role reaches (the server's answer).
 */
export function AllocationSummaryDialog({ customerId, opened, onClose }: TAllocationSummaryDialogProps) {
  const { t } = useTranslation();
  const { level } = useProfile().meta;
  const summary = useQuery(allocationSummaryQuery(customerId, opened));
  const count = (n: number) => t('customers.allocation.booking_count', { count: n });

  const section = (title: string, testId: string, rows: { key: string; name: string; extra?: string; n: number }[]) => (
    <Stack gap={4} data-testid={testId}>
      <Title order={3} size="h6">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('customers.allocation.none')}
        </Text>
      ) : (
        <Table>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key} data-testid="allocation-row" data-name={row.name}>
                <Table.Td>{row.name}</Table.Td>
                <Table.Td>
                  {row.extra && (
                    <Badge variant="light" color="gray">
                      {row.extra}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">{count(row.n)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      size="lg"
      title={t('customers.actions.allocation_summary')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {summary.isPending ? (
        <Group justify="center" py="lg">
          <Loader size="sm" />
        </Group>
      ) : summary.isError ? (
        <Text c="red" role="alert">
          {errorText(summary.error, t)}
        </Text>
      ) : (
        <Stack gap="md" data-testid="allocation-summary">
          {/* Below the brand the server answers the hotels in reach only, and their bookings only. */}
          {(level === 'hotel' || level === 'hotel_group') && (
            <Text size="sm" c="dimmed" data-testid="allocation-in-reach">
              {t('customers.allocation.in_reach_note')}
            </Text>
          )}
          {section(t('customers.allocation.brand'), 'allocation-brand', [
            { key: 'brand', name: summary.data.brand.name || '-', n: summary.data.brand.bookingCount },
          ])}
          {section(
            t('customers.allocation.hotel_groups'),
            'allocation-groups',
            summary.data.hotelGroups.map((g) => ({ key: g.id, name: g.name, n: g.bookingCount })),
          )}
          {section(
            t('customers.allocation.hotels'),
            'allocation-hotels',
            summary.data.hotels.map((h) => ({
              key: h.id,
              name: h.name,
              extra: t(`customers.allocation.source.${h.source}`, { defaultValue: h.source }),
              n: h.bookingCount,
            })),
          )}
        </Stack>
      )}
    </Modal>
  );
}
