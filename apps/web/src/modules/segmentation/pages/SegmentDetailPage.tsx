import { Anchor, Button, Group, List, Loader, Menu, Modal, Paper, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFilterCount, TSegment } from '@yado/contracts/segments';
import {
  IconCopy,
  IconDownload,
  IconEdit,
  IconFileUpload,
  IconFilter,
  IconRefresh,
  IconTrash,
  IconUserPlus,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { downloadThroughLink } from '../../../lib/browser/downloadThroughLink';
import { formatDate } from '../../../lib/dates/formatDate';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { useBrandDataEntitlements } from '../../ui/components/BrandDataAction';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { LockButton } from '../../ui/components/LockButton';
import { PageHeader } from '../../ui/components/PageHeader';
import { showSnackbar } from '../../ui/components/Snackbar';
import {
  deleteSegment,
  duplicateSegment,
  memberExportLink,
  recountSegment,
  removeMembers,
  hostTimeZoneQuery,
  SEGMENTS_QUERY_KEY,
  segmentQuery,
  segmentUsesQuery,
} from '../api/segmentsCalls';
import { AudienceText } from '../components/AudienceText';
import { FilterSummary } from '../components/FilterSummary';
import { FreezeDialog } from '../components/FreezeDialog';
import { MemberFileDialog } from '../components/MemberFileDialog';
import { MemberPreview } from '../components/MemberPreview';
import { SegmentTypeBadge } from '../components/SegmentTypeBadge';
import { WhyDialog } from '../components/WhyDialog';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIST_PATH = '/segmentation';

type TDialog = 'delete' | 'remove' | 'file' | 'freeze' | null;

/** One segment: what it is, its members now, and what can be done with it. */
export function SegmentDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  if (UUID.test(id)) return <SegmentDetail key={id} id={id} />;
  return (
    <Text c="red" role="alert">
      {t('errors.not_found')}
    </Text>
  );
}

function SegmentDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  // A copy is a create: none at the platform (useBrandDataEntitlements).
  const can = useBrandDataEntitlements();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const segment = useQuery(segmentQuery(id));
  // The acting host's zone, as the member list below and the customer pages show times in: a
  // segment made at 00:30 in Tokyo was made that day, whatever zone the browser is in.
  const timeZone = useQuery(hostTimeZoneQuery(id));
  const [dialog, setDialog] = useState<TDialog>(null);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [why, setWhy] = useState<{ id: string; fullName: string } | null>(null);
  const [counted, setCounted] = useState<TFilterCount | null>(null);
  const [inUse, setInUse] = useState(false);
  const uses = useQuery(segmentUsesQuery(id, inUse));

  if (segment.isPending || timeZone.isPending) return <Loader size="sm" />;
  if (segment.isError) {
    return (
      <Text c="red" role="alert">
        {errorText(segment.error, t)}
      </Text>
    );
  }
  const data: TSegment = segment.data;
  const owns = data.editable;
  const refresh = () => queryClient.invalidateQueries({ queryKey: SEGMENTS_QUERY_KEY });
  const close = () => setDialog(null);
  const changesMembers = owns && data.type === 'static' && can['segmentation.update'];

  const recount = async () => {
    try {
      setCounted(await recountSegment(data.id));
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };
  const duplicate = async () => {
    try {
      const copy = await duplicateSegment(data.id, language);
      showSnackbar({ status: 'success', message: t('segmentation.done.duplicated') });
      await refresh();
      void navigate(`${LIST_PATH}/${copy.id}`);
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await deleteSegment(data.id);
      showSnackbar({ status: 'success', message: t('segmentation.done.deleted') });
      queryClient.removeQueries({ queryKey: [...SEGMENTS_QUERY_KEY, 'one', data.id] });
      await refresh();
      void navigate(LIST_PATH, { replace: true });
    } catch (error) {
      close();
      // The server names what holds the segment; the console lists them.
      if (isApiError(error) && error.code === 'segment_in_use') setInUse(true);
      else showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };
  const removeSelected = async () => {
    setBusy(true);
    try {
      const { removed } = await removeMembers(data.id, selected);
      showSnackbar({ status: 'success', message: t('segmentation.done.removed', { count: removed }) });
      setSelected([]);
      close();
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };
  const download = async () => {
    const refused = (error: unknown) => showSnackbar({ status: 'failed', message: errorText(error, t) });
    try {
      downloadThroughLink(await memberExportLink(data.id, language), refused);
    } catch (error) {
      refused(error);
    }
  };

  const pageTimeZone = timeZone.data;
  const person = (at: string, who: { name: string } | null) => {
    const date = formatDate(at, language, { withTime: true, timeZone: pageTimeZone });
    return who ? t('segmentation.detail.by', { date, name: who.name }) : date;
  };
  const facts: [string, ReactNode][] = [
    ['owner', `${data.hostName} (${t(`segmentation.levels.${data.hostLevel}`)})`],
    [
      'audience',
      <Group key="audience" gap="sm" align="flex-start">
        <AudienceText
          audience={counted?.total ?? data.audience}
          countedAt={counted?.countedAt ?? data.audienceCountedAt}
          timeZone={pageTimeZone}
        />
        <LockButton
          size="compact-xs"
          variant="subtle"
          lockOnClick
          leftSection={<IconRefresh size={14} />}
          onClick={recount}
          data-testid="segment-recount"
        >
          {t('segmentation.actions.recount')}
        </LockButton>
      </Group>,
    ],
    ['created', person(data.createdAt, data.createdBy)],
    ['updated', person(data.updatedAt, data.updatedBy)],
  ];

  return (
    <>
      <Anchor component={Link} to={LIST_PATH} size="sm">
        {t('segmentation.actions.back_to_list')}
      </Anchor>
      <PageHeader
        title={data.name}
        description={data.description || undefined}
        actions={
          <Group gap="sm">
            <SegmentTypeBadge type={data.type} />
            {can['customer.export_csv'] && (
              <LockButton variant="default" lockOnClick leftSection={<IconDownload size={16} />} onClick={download}>
                {t('segmentation.actions.export')}
              </LockButton>
            )}
            {can['segmentation.create'] && (
              <LockButton variant="default" lockOnClick leftSection={<IconCopy size={16} />} onClick={duplicate}>
                {t('segmentation.actions.duplicate')}
              </LockButton>
            )}
            {owns && can['segmentation.update'] && (
              <Button
                component={Link}
                to={`${LIST_PATH}/${data.id}/edit`}
                variant="light"
                leftSection={<IconEdit size={16} />}
              >
                {t('segmentation.actions.edit')}
              </Button>
            )}
            {owns && can['segmentation.delete'] && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDialog('delete')}
              >
                {t('segmentation.actions.delete')}
              </Button>
            )}
          </Group>
        }
      />
      <Paper withBorder radius="md" p="md" mb="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} data-testid="segment-facts">
          {facts.map(([key, value]) => (
            <Stack key={key} gap={2} data-field={key}>
              <Text size="xs" c="dimmed">
                {t(`segmentation.detail.${key}`)}
              </Text>
              {typeof value === 'string' ? <Text size="sm">{value}</Text> : value}
            </Stack>
          ))}
        </SimpleGrid>
        {pageTimeZone && (
          <Text size="xs" c="dimmed" mt="sm" data-testid="segment-time-zone">
            {t('segmentation.detail.time_zone_note', { timeZone: pageTimeZone })}
          </Text>
        )}
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Tabs defaultValue="members" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="members" leftSection={<IconUsersGroup size={16} />}>
              {t('segmentation.detail.members')}
            </Tabs.Tab>
            {data.filter && (
              <Tabs.Tab value="filter" leftSection={<IconFilter size={16} />}>
                {t(data.type === 'dynamic' ? 'segmentation.detail.filter' : 'segmentation.detail.frozen_from')}
              </Tabs.Tab>
            )}
          </Tabs.List>
          <Tabs.Panel value="members">
            {changesMembers && (
              <Group gap="sm" mb="md" data-testid="member-actions">
                <Menu position="bottom-start">
                  <Menu.Target>
                    <Button leftSection={<IconUserPlus size={16} />} data-testid="add-members">
                      {t('segmentation.actions.add_members')}
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item component={Link} to="/customer-list" leftSection={<IconUsersGroup size={14} />}>
                      {t('segmentation.actions.add_from_list')}
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconFileUpload size={14} />}
                      onClick={() => setDialog('file')}
                      data-testid="add-from-file"
                    >
                      {t('segmentation.actions.add_from_file')}
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconFilter size={14} />}
                      onClick={() => setDialog('freeze')}
                      data-testid="add-from-filter"
                    >
                      {t('segmentation.actions.add_from_filter')}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Group>
            )}
            <MemberPreview
              segment={data}
              selectable={changesMembers}
              selected={selected}
              onSelect={setSelected}
              onRemove={() => setDialog('remove')}
              onWhy={setWhy}
            />
          </Tabs.Panel>
          {data.filter && (
            <Tabs.Panel value="filter">
              <FilterSummary
                filter={data.filter}
                groupCount={counted ? (path) => counted.groups.find((g) => g.path === path)?.count : undefined}
              />
            </Tabs.Panel>
          )}
        </Tabs>
      </Paper>

      <WhyDialog opened={why !== null} onClose={() => setWhy(null)} customer={why} segment={data} />
      {changesMembers && (
        <>
          <MemberFileDialog
            segmentId={data.id}
            opened={dialog === 'file'}
            onClose={close}
            onAdded={() => void refresh()}
          />
          <FreezeDialog
            segmentId={data.id}
            opened={dialog === 'freeze'}
            onClose={close}
            onAdded={() => void refresh()}
          />
        </>
      )}
      <ConfirmDialog
        opened={dialog === 'remove'}
        title={t('segmentation.confirm.remove_title')}
        message={t('segmentation.confirm.remove', { count: selected.length, name: data.name })}
        danger
        loading={busy}
        onClose={close}
        onConfirm={() => void removeSelected()}
      />
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={t('segmentation.confirm.delete_title')}
        message={t('segmentation.confirm.delete', { name: data.name })}
        confirmLabel={t('segmentation.actions.delete')}
        danger
        loading={busy}
        onClose={close}
        onConfirm={() => void remove()}
      />
      <Modal
        opened={inUse}
        onClose={() => setInUse(false)}
        title={t('segmentation.confirm.delete_title')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm" data-testid="segment-in-use">
          <Text size="sm">{t('errors.segment_in_use')}</Text>
          <Text size="sm">{t('segmentation.confirm.in_use', { name: data.name })}</Text>
          <List size="sm">
            {(uses.data ?? [])
              .filter((use) => use.blocksDelete)
              .map((use) => (
                // The use's state is the server's code (and a campaign's stays "scheduled" while
                // it sends): the message above says which uses hold a segment, the list names them.
                <List.Item key={`${use.kind}:${use.id}`}>
                  {`${t(`segmentation.confirm.use_kinds.${use.kind}`)}: ${use.name}`}
                </List.Item>
              ))}
          </List>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setInUse(false)}>
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
