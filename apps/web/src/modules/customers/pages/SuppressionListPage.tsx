import { Anchor, Badge, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SUPPRESSION_REASONS, type TSuppression, type TSuppressionReason } from '@yado/contracts/deliverability';
import { IconMailOff, IconPlus } from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate, formatTime } from '../../../lib/dates/formatDate';
import type { TLanguage } from '../../../lib/session/storage';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { EmailAddress } from '../../ui/components/EmailAddress';
import { FilterSelect } from '../../ui/components/ListControls';
import { ListPage, type TListColumn } from '../../ui/components/ListPage';
import { showSnackbar } from '../../ui/components/Snackbar';
import { listMemory, useListFilters } from '../../ui/hooks/useListFilters';
import {
  addSuppression,
  liftSuppression,
  SUPPRESSIONS_QUERY_KEY,
  suppressionListQuery,
  type TSuppressionFilters,
} from '../api/suppressionsCalls';

const PAGE_SIZE = 20;
const remembered = listMemory<TSuppressionFilters>({ search: '', reason: '' });
const REASON_COLORS: Record<TSuppressionReason, string> = {
  hard_bounce: 'red',
  soft_bounces: 'orange',
  complaint: 'grape',
  manual: 'gray',
};

/**
 * A date over its time of day, in the page's zone (the acting host's): two short lines where one
 * long one would widen the table.
 */
function DateAndTime({ value, language, timeZone }: { value: string; language: TLanguage; timeZone?: string }) {
  return (
    <>
      <Text size="sm">{formatDate(value, language, { timeZone })}</Text>
      <Text size="xs" c="dimmed">
        {formatTime(value, language, { timeZone })}
      </Text>
    </>
  );
}

/**
 * The relay's or report's own words, two lines at most so the table stays even, broken anywhere
 * (an address with no space in it took the whole cell, hiding "Mailbox full" after it), and
 * opened whole on request. Whether two lines hold it is measured, not guessed from its length:
 * a count of characters let 60 to 80 Latin ones, or 41 Japanese, take a third line unclamped.
 */
function Diagnostic({ text }: { text: string }) {
  const { t } = useTranslation();
  const [whole, setWhole] = useState(false);
  const [clipped, setClipped] = useState(false);
  const box = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || whole) return;
    const measure = () => setClipped(element.scrollHeight > element.clientHeight + 1);
    measure();
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resized?.observe(element);
    return () => resized?.disconnect();
  }, [text, whole]);
  return (
    <>
      <Text
        ref={box}
        size="xs"
        c="dimmed"
        lineClamp={whole ? undefined : 2}
        maw={240}
        style={{ overflowWrap: 'anywhere' }}
        title={text}
        data-testid="suppression-diagnostic"
      >
        {text}
      </Text>
      {(clipped || whole) && (
        <Anchor
          component="button"
          type="button"
          size="xs"
          aria-expanded={whole}
          onClick={() => setWhole((open) => !open)}
          data-testid="suppression-diagnostic-toggle"
        >
          {t(whole ? 'customers.suppressions.diagnostic_less' : 'customers.suppressions.diagnostic_more')}
        </Anchor>
      )}
    </>
  );
}

/**
 * The brand's suppression list (issue 25): addresses no campaign or journey mails, why, where
 * from, since and until when; a brand admin lifts an entry or adds an address.
 */
export function SuppressionListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const me = useProfile();
  const queryClient = useQueryClient();
  const list = useListFilters(remembered);
  const { filters, change } = list;
  const entries = useQuery(suppressionListQuery(filters, list.page, PAGE_SIZE));
  // The acting host's time zone, as on the customer list: an entry made at 00:30 in Tokyo was made
  // on that day, whatever zone the browser is in. Named under the table.
  const pageTimeZone = entries.data?.timeZone;
  // Lifting and adding are a brand admin's (the server checks the same).
  const canChange =
    me.meta.level === 'brand' && me.meta.role === 'admin' && me.entitlements['customer.change_email_status'];
  const [lifting, setLifting] = useState<TSuppression | null>(null);
  const [adding, setAdding] = useState(false);
  const [email, setEmail] = useState('');

  const refresh = () => queryClient.invalidateQueries({ queryKey: SUPPRESSIONS_QUERY_KEY });
  const lift = useMutation({
    mutationFn: (entry: TSuppression) => liftSuppression(entry.id),
    onSuccess: (_data, entry) => {
      setLifting(null);
      showSnackbar({ status: 'success', message: t('customers.suppressions.done.lifted', { email: entry.email }) });
      void refresh();
    },
    onError: (error) => showSnackbar({ status: 'failed', message: errorText(error, t) }),
  });
  const add = useMutation({
    mutationFn: (address: string) => addSuppression(address),
    onSuccess: (entry) => {
      setAdding(false);
      setEmail('');
      showSnackbar({ status: 'success', message: t('customers.suppressions.done.added', { email: entry.email }) });
      void refresh();
    },
    onError: (error) => {
      if (Object.keys(fieldErrorKeys(error)).length === 0)
        showSnackbar({ status: 'failed', message: errorText(error, t) });
    },
  });
  const addFieldError = fieldErrorKeys(add.error).email;

  const addButton = canChange && (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} data-testid="suppression-add">
      {t('customers.suppressions.add')}
    </Button>
  );

  const columns: TListColumn<TSuppression>[] = [
    {
      key: 'email',
      header: t('customers.suppressions.columns.email'),
      cell: (entry) => (
        <>
          <Text size="sm" fw={600}>
            <EmailAddress email={entry.email} />
          </Text>
          {entry.customer && (
            <Anchor component={Link} to={`/customer-list/${entry.customer.id}`} size="xs">
              {entry.customer.name}
            </Anchor>
          )}
        </>
      ),
    },
    {
      key: 'reason',
      header: t('customers.suppressions.columns.reason'),
      testId: 'suppression-reason',
      // The reason, and under it the relay's or report's own words (whole on hover).
      cell: (entry) => (
        <Stack gap={4} align="flex-start">
          <Badge variant="light" color={REASON_COLORS[entry.reason]}>
            {t(`customers.suppressions.reasons.${entry.reason}`)}
          </Badge>
          {entry.diagnostic && <Diagnostic text={entry.diagnostic} />}
        </Stack>
      ),
    },
    {
      key: 'source',
      header: t('customers.suppressions.columns.source'),
      // Wide enough that a campaign's name wraps between words, not after every character.
      cell: (entry) =>
        entry.scenario ? (
          <Text size="sm" miw={140}>
            {t('customers.suppressions.from_scenario', { name: entry.scenario.name })}
          </Text>
        ) : entry.campaign ? (
          <Anchor component={Link} to={`/campaign/${entry.campaign.id}`} size="sm" miw={140} display="block">
            {entry.campaign.name}
          </Anchor>
        ) : (
          '-'
        ),
    },
    {
      key: 'created_at',
      header: t('customers.suppressions.columns.created_at'),
      nowrap: true,
      cell: (entry) => <DateAndTime value={entry.createdAt} language={language} timeZone={pageTimeZone} />,
    },
    {
      key: 'until',
      header: t('customers.suppressions.columns.until'),
      nowrap: true,
      cell: (entry) =>
        entry.until ? (
          <DateAndTime value={entry.until} language={language} timeZone={pageTimeZone} />
        ) : (
          t('customers.suppressions.until_lifted')
        ),
    },
  ];

  return (
    <ListPage<TSuppression, 'lift', TSuppressionFilters>
      title={t('nav.suppression_list')}
      description={t('customers.suppressions.description')}
      headerActions={addButton}
      list={list}
      searchPlaceholder={t('customers.suppressions.search')}
      filters={
        <FilterSelect<TSuppressionReason | ''>
          label={t('customers.suppressions.columns.reason')}
          name="reason"
          value={filters.reason}
          allLabel={t('customers.suppressions.all_reasons')}
          options={SUPPRESSION_REASONS.map((reason) => ({
            value: reason,
            label: t(`customers.suppressions.reasons.${reason}`),
          }))}
          onChange={(reason) => change({ reason })}
        />
      }
      query={entries}
      columns={columns}
      rowKey={(entry) => entry.id}
      rowProps={(entry) => ({
        'data-testid': 'suppression-row',
        'data-email': entry.email,
        'data-reason': entry.reason,
      })}
      rowActions={
        canChange
          ? {
              of: () => ['lift'] as const,
              icons: { lift: <IconMailOff size={16} /> },
              danger: [],
              label: (entry) => t('customers.suppressions.row_actions', { email: entry.email }),
              textOf: () => t('customers.suppressions.lift'),
              onRun: (_action, entry) => setLifting(entry),
              header: t('customers.suppressions.columns.actions'),
            }
          : undefined
      }
      empty={{
        title: t('customers.suppressions.empty_title'),
        next: t('customers.suppressions.empty_next'),
        readOnly: !canChange,
      }}
      texts="customers.suppressions"
      testId="suppression"
      pageSize={PAGE_SIZE}
      minWidth={900}
    >
      {pageTimeZone && (entries.data?.items.length ?? 0) > 0 && (
        <Text size="xs" c="dimmed" mt="xs" data-testid="suppression-time-zone">
          {t('customers.suppressions.time_zone_note', { timeZone: pageTimeZone })}
        </Text>
      )}
      <ConfirmDialog
        opened={lifting !== null}
        title={t('customers.suppressions.confirm_lift.title')}
        message={
          <Stack gap="xs" component="span">
            {/* A complainer stays unsubscribed: mail does not resume, so the dialog does not say it does. */}
            <span data-testid="suppression-lift-message">
              {t(
                lifting?.reason === 'complaint'
                  ? 'customers.suppressions.confirm_lift.message_complaint'
                  : 'customers.suppressions.confirm_lift.message',
                { email: lifting?.email ?? '' },
              )}
            </span>
            {lifting?.reason === 'complaint' && (
              <Text size="sm" c="red" fw={600} component="span" data-testid="suppression-complaint-warning">
                {t('customers.suppressions.confirm_lift.complaint_warning')}
              </Text>
            )}
            {lifting?.reason === 'hard_bounce' && (
              <Text size="sm" c="dimmed" component="span">
                {t('customers.suppressions.confirm_lift.hard_bounce_note')}
              </Text>
            )}
          </Stack>
        }
        confirmLabel={t('customers.suppressions.lift')}
        danger={lifting?.reason === 'complaint'}
        loading={lift.isPending}
        // The promise keeps the dialog locked until the answer (its failure is the toast's).
        onConfirm={() => (lifting ? lift.mutateAsync(lifting) : undefined)}
        onClose={() => setLifting(null)}
      />
      <Modal
        opened={adding}
        onClose={() => setAdding(false)}
        title={t('customers.suppressions.add_dialog.title')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            add.mutate(email);
          }}
        >
          <Stack gap="md">
            <Text size="sm">{t('customers.suppressions.add_dialog.message')}</Text>
            <TextInput
              label={t('customers.suppressions.columns.email')}
              name="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={addFieldError ? t(addFieldError) : undefined}
              required
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setAdding(false)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={add.isPending}>
                {t('customers.suppressions.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </ListPage>
  );
}
