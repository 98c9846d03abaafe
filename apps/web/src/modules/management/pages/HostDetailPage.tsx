import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconBuilding, IconEdit, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { LockButton } from '../../ui/components/LockButton';
import { PageHeader } from '../../ui/components/PageHeader';
import { showSnackbar } from '../../ui/components/Snackbar';
import { hostChoicesQuery, hostDetailQuery, HOSTS_QUERY_KEY, removeHost, setHotelGroup } from '../api/hostsCalls';
import { HostFormDialog } from '../components/HostFormDialog';
import { LEVELS, type TManagedLevel } from '../levels';
import { AUDIT_QUERY_KEY } from '../../audit/api/auditCalls';
import { AuditLogTable } from '../../audit/components/AuditLogTable';

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" data-testid={testId}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** A brand, hotel group or hotel: its information, logo, groups or hotels, and users. */
export function HostDetailPage({ level }: { level: TManagedLevel }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const me = useProfile();
  const can = me.entitlements;
  const config = LEVELS[level];
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const host = useQuery(hostDetailQuery(level, id));
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [groupChoice, setGroupChoice] = useState<string | null>(null);
  const canGroup = level === 'hotel' && can['manage_hotel.add_hotel_to_group'];
  const groups = useQuery(hostChoicesQuery('hotel_group', host.data?.brandId ?? null, canGroup && !!host.data));

  if (host.isPending) return <Loader size="sm" />;
  if (host.isError) {
    return (
      <Text c="red" role="alert">
        {errorText(host.error, t)}
      </Text>
    );
  }
  const data = host.data;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: HOSTS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: AUDIT_QUERY_KEY }),
    ]);
  const chosenGroup = groupChoice ?? data.hotelGroupId ?? '';

  const remove = async () => {
    setDeleting(true);
    try {
      await removeHost(level, data.id, data.name);
      showSnackbar({ status: 'success', message: t('management.delete.done', { name: data.name }) });
      await refresh();
      void navigate(config.listPath, { replace: true });
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
      setDeleting(false);
    }
  };

  const moveToGroup = async (hotelGroupId: string | null) => {
    try {
      await setHotelGroup(data.id, hotelGroupId);
      showSnackbar({
        status: 'success',
        message: t(hotelGroupId ? 'management.group.added' : 'management.group.removed'),
      });
      setGroupChoice(null);
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  const info: [string, string | null][] = [
    ['hosts.fields.address', data.address],
    ['hosts.fields.email', data.email],
    ['hosts.fields.phone', data.phone],
    ['hosts.fields.timezone', data.timezone],
    ...(level !== 'brand' ? ([['management.fields.brand', data.brandName]] as [string, string | null][]) : []),
    ...(level === 'hotel'
      ? ([
          ['management.fields.hotel_group', data.hotelGroupName],
          ['hosts.fields.booking_hotel_code', data.bookingHotelCode],
        ] as [string, string | null][])
      : []),
  ];

  return (
    <>
      <Anchor component={Link} to={config.listPath} size="sm">
        {t('management.back_to_list', { list: t(`nav.${config.areaId}`) })}
      </Anchor>
      <PageHeader
        title={data.name}
        actions={
          <Group gap="sm">
            {can[config.update] && (
              <Button variant="light" leftSection={<IconEdit size={16} />} onClick={() => setDialog('edit')}>
                {t('management.edit')}
              </Button>
            )}
            {can[config.remove] && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDialog('delete')}
              >
                {t('management.delete.action')}
              </Button>
            )}
          </Group>
        }
      />
      <Stack gap="lg">
        <Section title={t('management.detail.information')} testId="host-info">
          <Group align="flex-start" gap="xl">
            <Avatar src={data.logoUrl} size={96} radius="md" alt={t('hosts.fields.logo')} data-testid="host-logo">
              <IconBuilding size={40} />
            </Avatar>
            <Table variant="vertical" withTableBorder style={{ flex: 1 }}>
              <Table.Tbody>
                {info.map(([key, value]) => (
                  <Table.Tr key={key} data-testid={`host-info-${key.split('.').pop()}`}>
                    <Table.Th w={160}>{t(key)}</Table.Th>
                    <Table.Td>{value || '-'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Group>
          {canGroup && (
            <Group align="flex-end" gap="sm" mt="md" data-testid="hotel-group-assignment">
              <NativeSelect
                label={t('management.group.label')}
                name="hotelGroupId"
                value={chosenGroup}
                onChange={(event) => setGroupChoice(event.currentTarget.value)}
                data={[
                  { value: '', label: t('management.no_group') },
                  ...(groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
                ]}
              />
              <LockButton
                lockOnClick
                disabled={chosenGroup === (data.hotelGroupId ?? '') || chosenGroup === ''}
                onClick={() => moveToGroup(chosenGroup)}
              >
                {t('management.group.add')}
              </LockButton>
              {data.hotelGroupId && (
                <LockButton variant="default" lockOnClick onClick={() => moveToGroup(null)}>
                  {t('management.group.remove')}
                </LockButton>
              )}
            </Group>
          )}
        </Section>
        <SimpleGrid cols={{ base: 1, lg: level === 'brand' ? 2 : 1 }}>
          {level === 'brand' && (
            <Section title={t('management.fields.hotel_groups')} testId="host-groups">
              {data.hotelGroups.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('management.detail.none')}
                </Text>
              ) : (
                <Table>
                  <Table.Tbody>
                    {data.hotelGroups.map((g) => (
                      <Table.Tr key={g.id}>
                        <Table.Td>
                          <Anchor component={Link} to={`${LEVELS.hotel_group.listPath}/${g.id}`}>
                            {g.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{t('management.detail.hotel_count', { count: g.hotelCount })}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Section>
          )}
          {level !== 'hotel' && (
            <Section title={t('management.fields.hotels')} testId="host-hotels">
              {data.hotels.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('management.detail.none')}
                </Text>
              ) : (
                <Table>
                  <Table.Tbody>
                    {data.hotels.map((h) => (
                      <Table.Tr key={h.id} data-testid="host-hotel" data-name={h.name}>
                        <Table.Td>
                          <Anchor component={Link} to={`${LEVELS.hotel.listPath}/${h.id}`}>
                            {h.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{h.hotelGroupName ?? '-'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Section>
          )}
        </SimpleGrid>
        {can[config.readUsers] && (
          <Section title={t('management.fields.users')} testId="host-users">
            {data.users.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('management.detail.none')}
              </Text>
            ) : (
              <Table>
                <Table.Tbody>
                  {data.users.map((u) => (
                    <Table.Tr key={u.id}>
                      <Table.Td>{u.fullName}</Table.Td>
                      <Table.Td>{u.email}</Table.Td>
                      <Table.Td>{t(`roles.${level}.${u.role}`, { defaultValue: u.roleName })}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={u.status === 'active' ? 'teal' : 'gray'}>
                          {t(`users.status.${u.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{t(`users.origin.${u.origin}`)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Section>
        )}
        {can['audit.read_audit_log'] && (
          <Section title={t('nav.audit_log')} testId="host-audit-log">
            <AuditLogTable hostId={data.id} />
          </Section>
        )}
      </Stack>
      <HostFormDialog
        level={level}
        opened={dialog === 'edit'}
        host={data}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          void refresh();
        }}
      />
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={t(`management.delete.title.${level}`)}
        message={t('management.delete.message', { name: data.name })}
        typedSentence={data.name}
        confirmLabel={t('management.delete.action')}
        danger
        loading={deleting}
        onClose={() => setDialog(null)}
        onConfirm={() => void remove()}
      />
    </>
  );
}
