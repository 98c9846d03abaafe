import { Button, Center, Group, Loader, Modal, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { THostLevel } from '@yado/contracts/tenancy';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/components/EmptyState';
import { SearchInput } from '../../ui/components/SearchInput';
import { fetchAssignableRoles } from '../api/assignable';
import { useSwitchRole } from '../hooks/useSwitchRole';
import { chooseTab, presentLevels, rolesAt, sortRoles } from '../switchRole';
import { RoleRow } from './RoleRow';

export const SWITCH_ROLE_DIALOG_WIDTH = 740;
export const ROLE_LIST_MAX_HEIGHT = 290;

export interface TSwitchRoleDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** Spec section 2, "Switch role dialog". */
export function SwitchRoleDialog({ opened, onClose }: TSwitchRoleDialogProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [requestedTab, setRequestedTab] = useState<THostLevel>('grand_user');
  const [openCount, setOpenCount] = useState(0);
  const viewport = useRef<HTMLDivElement>(null);
  const { switchTo, switching } = useSwitchRole();

  // Each opening starts over: the grand-user tab (or the default one) and an empty search.
  useEffect(() => {
    if (!opened) return;
    setSearch('');
    setRequestedTab('grand_user');
    setOpenCount((n) => n + 1);
  }, [opened]);

  const query = useQuery({
    queryKey: ['assignable-roles', search, openCount],
    queryFn: ({ signal }) => fetchAssignableRoles(search, signal),
    enabled: opened,
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 60_000,
  });
  // On failure the list is empty (spec section 4).
  const data = query.isError ? undefined : query.data;
  const tab = chooseTab(requestedTab, data);
  const levels = presentLevels(data);

  useEffect(() => {
    viewport.current?.scrollTo({ top: 0 });
  }, [tab]);

  const rows = tab ? sortRoles(rolesAt(data, tab)) : [];

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size={SWITCH_ROLE_DIALOG_WIDTH}
      centered
      title={t('switch_role.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="switch-role-dialog"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('switch_role.message')}
        </Text>
        <Group gap="sm" align="flex-end" wrap="nowrap">
          <div style={{ flex: 1 }}>
            <SearchInput resetKey={openCount} onSearch={setSearch} placeholder={t('switch_role.search_placeholder')} />
          </div>
          {data && !data.isDefaultLoggedIn && (
            <Button
              variant="light"
              leftSection={<IconArrowBackUp size={16} />}
              onClick={() => void switchTo(null)}
              loading={switching}
              data-testid="back-to-default-role"
            >
              {t('switch_role.back_to_default')}
            </Button>
          )}
        </Group>
        {levels.length > 0 && tab && (
          <Tabs value={tab} onChange={(value) => value && setRequestedTab(value as THostLevel)}>
            <Tabs.List>
              {levels.map((level) => (
                <Tabs.Tab key={level} value={level} data-testid={`role-tab-${level}`}>
                  {t(`switch_role.tabs.${level}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
        )}
        <ScrollArea.Autosize mah={ROLE_LIST_MAX_HEIGHT} viewportRef={viewport} type="auto" data-testid="role-list">
          {query.isPending || (query.isFetching && !data) ? (
            <Center h={116}>
              <Loader size="sm" />
            </Center>
          ) : rows.length === 0 ? (
            <EmptyState title={t('errors.no_data')} description={t('switch_role.empty')} />
          ) : (
            <Stack gap={0}>
              {rows.map((role) => (
                <RoleRow
                  key={`${role.level}:${role.slug}:${role.role}`}
                  role={role}
                  disabled={switching}
                  onSelect={() => void switchTo(role)}
                />
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        {query.isFetching && data && (
          <Text size="xs" c="dimmed" role="status">
            {t('common.loading')}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
