import { Anchor, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconHelpCircle, IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { customerSegmentsQuery } from '../api/segmentsCalls';
import { AddToSegmentsDialog } from './AddToSegmentsDialog';
import { SegmentTypeBadge } from './SegmentTypeBadge';
import { WhyDialog } from './WhyDialog';

/**
 * The customer detail's segments tab: the segments the customer is in now, each with "Why?",
 * and "Why is this guest in?" for any other segment (to learn why they are out).
 */
export function CustomerSegments({ customer }: { customer: { id: string; fullName: string } }) {
  const { t } = useTranslation();
  const me = useProfile();
  const segments = useQuery(customerSegmentsQuery(customer.id));
  const [why, setWhy] = useState<{ id: string; name: string } | null | undefined>(undefined);
  const [adding, setAdding] = useState(false);

  return (
    <Stack gap="md" data-testid="customer-segments">
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconHelpCircle size={16} />}
          onClick={() => setWhy(null)}
          data-testid="why-any"
        >
          {t('segmentation.why.title')}
        </Button>
        {me.entitlements['segmentation.update'] && (
          <Button variant="default" leftSection={<IconUsersPlus size={16} />} onClick={() => setAdding(true)}>
            {t('segmentation.actions.add_to_segments')}
          </Button>
        )}
      </Group>
      {segments.isPending ? (
        <Loader size="sm" />
      ) : segments.isError ? (
        <Text c="red" role="alert">
          {errorText(segments.error, t)}
        </Text>
      ) : segments.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('segmentation.customer.none')}
        </Text>
      ) : (
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('segmentation.list.columns.name')}</Table.Th>
              <Table.Th>{t('segmentation.list.columns.type')}</Table.Th>
              <Table.Th>{t('segmentation.list.columns.owner')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {segments.data.map((segment) => (
              <Table.Tr key={segment.id} data-testid="customer-segment" data-name={segment.name}>
                <Table.Td>
                  <Anchor component={Link} to={`/segmentation/${segment.id}`}>
                    {segment.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <SegmentTypeBadge type={segment.type} />
                </Table.Td>
                <Table.Td>{segment.hostName}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconHelpCircle size={14} />}
                    onClick={() => setWhy(segment)}
                    data-testid="customer-segment-why"
                  >
                    {t('segmentation.actions.why')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <WhyDialog opened={why !== undefined} onClose={() => setWhy(undefined)} customer={customer} segment={why} />
      <AddToSegmentsDialog
        opened={adding}
        onClose={() => setAdding(false)}
        customerIds={[customer.id]}
        customerName={customer.fullName}
        onAdded={() => void segments.refetch()}
      />
    </Stack>
  );
}
