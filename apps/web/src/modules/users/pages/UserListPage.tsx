import { ActionIcon, Badge, Button, Group, NativeSelect, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TRole } from '@yado/contracts/tenancy';
import type { TUser } from '@yado/contracts/users';
import { IconDots, IconMailForward, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { EmptyState } from '../../ui/components/EmptyState';
import { EntitlementMenu, type TDropdownOption } from '../../ui/components/EntitlementMenu';
import { PageHeader } from '../../ui/components/PageHeader';
import { SearchInput } from '../../ui/components/SearchInput';
import { showSnackbar } from '../../ui/components/Snackbar';
import {
  removeUserRole,
  setUserStatus,
  userListQuery,
  USERS_PAGE_SIZE,
  USERS_QUERY_KEY,
  type TUserFilters,
} from '../api/usersCalls';
import { InviteUsersDialog } from '../components/InviteUsersDialog';
import { RoleSelect } from '../components/RoleSelect';
import { UserDetailDialog } from '../components/UserDetailDialog';
import { UserFormDialog } from '../components/UserFormDialog';
import { UserStatusBadge } from '../components/UserStatusBadge';

type TAction = 'detail' | 'edit' | 'status' | 'remove';
type TDialog = { kind: 'add' } | { kind: 'invite' } | { kind: TAction; user: TUser } | null;

/** Spec section 2, "Authorization": the users of the acting host. */
export function UserListPage() {
  const { t } = useTranslation();
  const me = useProfile();
  const can = me.entitlements;
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<TUserFilters>({ search: '', role: '', status: '', page: 1 });
  const [dialog, setDialog] = useState<TDialog>(null);
  const [busy, setBusy] = useState(false);
  const users = useQuery(userListQuery(filters));
  const filter = (next: Partial<TUserFilters>) => setFilters((f) => ({ ...f, ...next, page: 1 }));
  const [searchResetKey, setSearchResetKey] = useState(0);
  const clearFilters = () => {
    filter({ search: '', role: '', status: '' });
    setSearchResetKey((key) => key + 1);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY });
  const close = () => setDialog(null);

  const options = (user: TUser): TDropdownOption<TAction>[] => [
    { id: 'detail', data: 'detail', label: t('users.actions.detail'), entitlement: 'authorization.read' },
    { id: 'edit', data: 'edit', label: t('users.actions.edit'), entitlement: 'authorization.update' },
    {
      id: 'status',
      data: 'status',
      label: user.canChangeStatus
        ? t(user.status === 'active' ? 'users.actions.deactivate' : 'users.actions.activate')
        : t('users.status.locked'),
      entitlement: 'authorization.update',
      disabled: !user.canChangeStatus || user.id === me.id,
    },
    {
      id: 'remove',
      data: 'remove',
      label: t('users.actions.remove'),
      entitlement: 'authorization.delete',
      disabled: user.id === me.id,
      color: 'red',
    },
  ];

  const act = async (work: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await work();
      showSnackbar({ status: 'success', message });
      close();
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  const data = users.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / USERS_PAGE_SIZE)) : 1;
  const target = dialog && 'user' in dialog ? dialog.user : null;

  return (
    <>
      <PageHeader
        title={t('nav.user_list')}
        actions={
          <Group gap="sm">
            {can['authorization.invite'] && (
              <Button
                variant="light"
                leftSection={<IconMailForward size={16} />}
                onClick={() => setDialog({ kind: 'invite' })}
              >
                {t('users.invite.open')}
              </Button>
            )}
            {can['authorization.create'] && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>
                {t('users.form.add_title')}
              </Button>
            )}
          </Group>
        }
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <Group gap="sm" align="flex-end">
            <div style={{ flex: 1, minWidth: 220 }}>
              <SearchInput
                onSearch={(search) => filter({ search })}
                placeholder={t('users.list.search')}
                resetKey={searchResetKey}
              />
            </div>
            <RoleSelect
              level={me.meta.level}
              label={t('users.fields.role')}
              emptyLabel={t('users.list.all_roles')}
              value={filters.role}
              onChange={(role) => filter({ role: role as TRole | '' })}
            />
            <NativeSelect
              label={t('users.fields.status')}
              value={filters.status}
              onChange={(event) => filter({ status: event.currentTarget.value as TUserFilters['status'] })}
              data={[
                { value: '', label: t('users.list.all_statuses') },
                { value: 'active', label: t('users.status.active') },
                { value: 'inactive', label: t('users.status.inactive') },
              ]}
            />
          </Group>
          {users.isError ? (
            <Text c="red" role="alert">
              {errorText(users.error, t)}
            </Text>
          ) : data && data.items.length === 0 ? (
            <EmptyState
              readOnly={!can['authorization.create']}
              filtered={Boolean(filters.search || filters.role || filters.status)}
              onClear={clearFilters}
            />
          ) : (
            <Table.ScrollContainer minWidth={900}>
              <Table highlightOnHover data-testid="user-table">
                <Table.Thead>
                  <Table.Tr>
                    {['full_name', 'nick_name', 'email', 'phone_number', 'role', 'status', 'origin'].map((key) => (
                      <Table.Th key={key}>{t(`users.fields.${key}`)}</Table.Th>
                    ))}
                    <Table.Th w={48} />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data?.items.map((user) => (
                    <Table.Tr key={user.id} data-testid="user-row" data-email={user.email}>
                      <Table.Td>{user.fullName}</Table.Td>
                      <Table.Td>{user.nickName ?? '-'}</Table.Td>
                      <Table.Td>{user.email}</Table.Td>
                      <Table.Td>{user.phoneNumber ?? '-'}</Table.Td>
                      <Table.Td>{t(`roles.${me.meta.level}.${user.role}`, { defaultValue: user.roleName })}</Table.Td>
                      <Table.Td>
                        <UserStatusBadge status={user.status} />
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="outline" color="gray">
                          {t(`users.origin.${user.origin}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <EntitlementMenu
                          target={
                            <ActionIcon variant="subtle" color="gray" aria-label={t('users.actions.open')}>
                              <IconDots size={16} />
                            </ActionIcon>
                          }
                          entitlements={can}
                          options={options(user)}
                          onSelect={(option) => option.data && setDialog({ kind: option.data, user })}
                          width={260}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Group justify="flex-end">
              <Pagination total={pages} value={filters.page} onChange={(page) => setFilters((f) => ({ ...f, page }))} />
            </Group>
          )}
        </Stack>
      </Paper>

      <UserFormDialog
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        user={dialog?.kind === 'edit' ? dialog.user : null}
        onClose={close}
        onSaved={() => {
          close();
          void refresh();
        }}
      />
      <InviteUsersDialog
        opened={dialog?.kind === 'invite'}
        onClose={close}
        onInvited={() => {
          close();
          void refresh();
        }}
      />
      <UserDetailDialog user={dialog?.kind === 'detail' ? dialog.user : null} onClose={close} />
      <ConfirmDialog
        opened={dialog?.kind === 'status'}
        title={t(target?.status === 'active' ? 'users.actions.deactivate' : 'users.actions.activate')}
        message={t(target?.status === 'active' ? 'users.confirm.deactivate' : 'users.confirm.activate', {
          name: target?.fullName ?? '',
        })}
        danger={target?.status === 'active'}
        loading={busy}
        onClose={close}
        onConfirm={() =>
          target &&
          void act(
            () => setUserStatus(target.id, target.status === 'active' ? 'inactive' : 'active'),
            t(target.status === 'active' ? 'users.done.deactivated' : 'users.done.activated'),
          )
        }
      />
      <ConfirmDialog
        opened={dialog?.kind === 'remove'}
        title={t('users.actions.remove')}
        message={t('users.confirm.remove', { name: target?.fullName ?? '' })}
        danger
        loading={busy}
        onClose={close}
        onConfirm={() => target && void act(() => removeUserRole(target.id), t('users.done.removed'))}
      />
    </>
  );
}
