import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  NativeSelect,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TEMPLATE_SORTS, type TTemplateSummary } from '@yado/contracts/templates';
import {
  IconChartBar,
  IconCopy,
  IconDotsVertical,
  IconEye,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatInPageZone } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { SearchInput } from '../../ui/components/SearchInput';
import { showSnackbar } from '../../ui/components/Snackbar';
import {
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  templateListQuery,
  TEMPLATES_PAGE_SIZE,
  TEMPLATES_QUERY_KEY,
  type TTemplateFilters,
  type TTemplateSort,
} from '../api/templatesCalls';
import { TemplateCover } from '../components/TemplateCover';
import { TemplateDetailsDialog } from '../components/TemplateDetailsDialog';
import { TemplateReportDialog } from '../components/TemplateReportDialog';

/** Spec section 2, "Templates": list, create, edit, view report, delete; a brand's templates read-only below it. */
export function TemplateListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const can = useProfile().entitlements;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<TTemplateFilters>({ search: '', sort: '-updated_at', page: 1 });
  const [searchResetKey, setSearchResetKey] = useState(0);
  const clearSearch = () => {
    setFilters((f) => ({ ...f, search: '', page: 1 }));
    setSearchResetKey((key) => key + 1);
  };
  const [creating, setCreating] = useState(false);
  const [reporting, setReporting] = useState<TTemplateSummary | null>(null);
  const [deleting, setDeleting] = useState<TTemplateSummary | null>(null);
  // A refusal (template_in_use names the campaign) stays in the dialog.
  const [deleteRefusal, setDeleteRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const templates = useQuery(templateListQuery(filters));
  const data = templates.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / TEMPLATES_PAGE_SIZE)) : 1;
  // One time zone for the page, named under the grid, as on the campaign list: the templates' own
  // (their owning host's); a template of a host in another zone names its zone by its time.
  const pageTimeZone = data?.items[0]?.timeZone;
  const zoned = (at: string, timeZone: string) => formatInPageZone(at, language, timeZone, pageTimeZone);
  const refresh = () => queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY });

  const duplicate = async (template: TTemplateSummary) => {
    try {
      const copy = await duplicateTemplate(template.id, language);
      showSnackbar({ status: 'success', message: t('templates.done.duplicated', { name: copy.name }) });
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteTemplate(deleting.id);
      showSnackbar({ status: 'success', message: t('templates.done.deleted', { name: deleting.name }) });
      setDeleting(null);
      await refresh();
    } catch (error) {
      setDeleteRefusal(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title={t('nav.templates')}
        actions={
          can['templates.create'] && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t('templates.actions.create')}
            </Button>
          )
        }
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <Group gap="sm" align="flex-end">
            <div style={{ flex: 1, minWidth: 240 }}>
              <SearchInput
                onSearch={(search) => setFilters((f) => ({ ...f, search, page: 1 }))}
                placeholder={t('templates.list.search')}
                resetKey={searchResetKey}
              />
            </div>
            <NativeSelect
              label={t('templates.list.sort')}
              value={filters.sort}
              onChange={(event) => {
                const sort = event.currentTarget.value as TTemplateSort;
                setFilters((f) => ({ ...f, sort, page: 1 }));
              }}
              data={TEMPLATE_SORTS.map((sort) => ({
                value: sort,
                label: t(`templates.sorts.${sort.replace('-', 'desc_')}`),
              }))}
            />
          </Group>
          {templates.isError ? (
            <Text c="red" role="alert">
              {errorText(templates.error, t)}
            </Text>
          ) : data && data.items.length === 0 ? (
            <EmptyState readOnly={!can['templates.create']} filtered={Boolean(filters.search)} onClear={clearSearch} />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3, xl: 4 }} spacing="md" data-testid="template-grid">
              {data?.items.map((template) => {
                const editable = template.editable && can['templates.update'];
                const path = `/templates/${template.id}`;
                return (
                  <Card
                    key={template.id}
                    withBorder
                    radius="md"
                    padding={0}
                    data-testid="template-card"
                    data-name={template.name}
                  >
                    <Card.Section>
                      <Link to={path} aria-label={t('templates.actions.open_named', { name: template.name })}>
                        <TemplateCover template={template} />
                      </Link>
                    </Card.Section>
                    <Stack gap={6} p="md">
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <Text
                          fw={600}
                          lineClamp={1}
                          component={Link}
                          to={path}
                          title={template.name}
                          c="inherit"
                          td="none"
                        >
                          {template.name}
                        </Text>
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={t('templates.actions.menu', { name: template.name })}
                            >
                              <IconDotsVertical size={18} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item
                              leftSection={editable ? <IconPencil size={16} /> : <IconEye size={16} />}
                              onClick={() => void navigate(path)}
                            >
                              {t(editable ? 'templates.actions.edit' : 'templates.actions.view')}
                            </Menu.Item>
                            {can['templates.create'] && (
                              <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => void duplicate(template)}>
                                {t('templates.actions.duplicate')}
                              </Menu.Item>
                            )}
                            <Menu.Item leftSection={<IconChartBar size={16} />} onClick={() => setReporting(template)}>
                              {t('templates.actions.view_report')}
                            </Menu.Item>
                            {template.editable && can['templates.delete'] && (
                              <Menu.Item
                                color="red"
                                leftSection={<IconTrash size={16} />}
                                onClick={() => {
                                  setDeleteRefusal(null);
                                  setDeleting(template);
                                }}
                              >
                                {t('templates.actions.delete')}
                              </Menu.Item>
                            )}
                          </Menu.Dropdown>
                        </Menu>
                      </Group>
                      <Text size="sm" c="dimmed" lineClamp={2} mih={40}>
                        {template.description || t('templates.list.no_description')}
                      </Text>
                      <Group gap={6}>
                        {template.languages.map((l) => (
                          <Badge key={l} size="xs" variant={l === template.defaultLanguage ? 'filled' : 'light'}>
                            {t(`templates.languages.short_${l}`)}
                          </Badge>
                        ))}
                        {!template.editable && (
                          <Badge size="xs" color="gray" variant="light" data-testid="template-read-only">
                            {t('templates.list.read_only', { owner: template.owner.name })}
                          </Badge>
                        )}
                      </Group>
                      <Text size="xs" c="dimmed" data-testid="template-updated">
                        {t('templates.list.updated', { date: zoned(template.updatedAt, template.timeZone) })}
                      </Text>
                    </Stack>
                  </Card>
                );
              })}
            </SimpleGrid>
          )}
          {pageTimeZone && (
            <Text size="xs" c="dimmed" data-testid="template-time-zone">
              {t('templates.list.time_zone_note', { timeZone: pageTimeZone })}
            </Text>
          )}
          {pages > 1 && (
            <Group justify="flex-end">
              <Pagination total={pages} value={filters.page} onChange={(page) => setFilters((f) => ({ ...f, page }))} />
            </Group>
          )}
        </Stack>
      </Paper>

      <TemplateDetailsDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onSubmit={async (details) => {
          const created = await createTemplate(details);
          setCreating(false);
          await refresh();
          await navigate(`/templates/${created.id}`);
        }}
      />
      <TemplateReportDialog template={reporting} onClose={() => setReporting(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('templates.delete.title')}
        message={
          deleteRefusal ? (
            <Text component="span" c="red" role="alert" data-testid="delete-refusal">
              {deleteRefusal}
            </Text>
          ) : (
            t('templates.delete.message', { name: deleting?.name ?? '' })
          )
        }
        confirmLabel={t('templates.actions.delete')}
        danger
        loading={busy}
        onClose={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
