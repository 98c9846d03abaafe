import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  CopyButton,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import type { TDnsRecord, TDomainState, TSendingDomain } from '@yado/contracts/sending';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { LockButton } from '../../ui/components/LockButton';
import { showSnackbar } from '../../ui/components/Snackbar';
import { addDomain, domainsQuery, removeDomain, verifyDomain } from '../api/sendingCalls';
import { DomainDeliverability } from './DomainDeliverability';
import { STATE_COLOR } from './domainState';
import { clock, useCountdown } from './useCountdown';

export { STATE_COLOR };

/**
 * Domain authentication in two steps (specification section 2): enter a domain, then publish its
 * records and verify them. "Verify DNS setup" unlocks after the countdown the server keeps.
 */
export function DomainAuthentication() {
  const { t } = useTranslation();
  const domains = useQuery(domainsQuery);
  if (domains.isPending) return <Loader size="sm" />;
  if (domains.isError) {
    return (
      <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="domains-unavailable">
        {errorText(domains.error, t)}
      </Alert>
    );
  }
  const { domains: list, canManage } = domains.data;
  return (
    <Stack gap="md">
      <LapsedDomainsBanner domains={list} />
      {canManage ? (
        <AddDomainForm />
      ) : (
        <Text size="sm" c="dimmed">
          {t('sending.domains.brand_only')}
        </Text>
      )}
      {list.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('sending.domains.none')}
        </Text>
      )}
      {list.map((d) => (
        <DomainCard key={d.id} domain={d} canManage={canManage} fetchedAt={domains.dataUpdatedAt} />
      ))}
      {/* The figures are the brand's: shown to those who manage its domains, at the brand level. */}
      {canManage && list.length > 0 && <DomainDeliverability />}
    </Stack>
  );
}

/** For brand admins: a domain that was verified and failed a later check. */
/** `action`: a way to put it right (a link to Domain authentication), inside the banner. */
export function LapsedDomainsBanner({ domains, action }: { domains: TSendingDomain[]; action?: ReactNode }) {
  const { t } = useTranslation();
  const lapsed = domains.filter((d) => d.lapsedAt && d.state !== 'verified');
  if (lapsed.length === 0) return null;
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle size={18} />}
      title={t('sending.domains.lapsed_title')}
      data-testid="domain-lapsed-banner"
    >
      {t('sending.domains.lapsed_message', {
        domains: lapsed.map((d) => d.displayName).join(t('sending.list_separator')),
      })}
      {action && <Box mt="xs">{action}</Box>}
    </Alert>
  );
}

function AddDomainForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!domain.trim()) {
      setError(t('errors.domain_invalid'));
      return;
    }
    setBusy(true);
    try {
      await addDomain(domain);
      setDomain('');
      setError(null);
      await queryClient.invalidateQueries({ queryKey: ['sending'] });
      showSnackbar({ status: 'success', message: t('sending.domains.added') });
    } catch (e) {
      const field = isApiError(e) ? e.fields?.domain : undefined;
      setError(field ? t(`errors.${field.code}`) : errorText(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="domain-add-form">
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {t('sending.domains.step1')}
        </Text>
        <Group align="flex-start" gap="sm">
          <TextInput
            name="domain"
            aria-label={t('sending.domains.domain')}
            placeholder={t('sending.domains.placeholder')}
            value={domain}
            onChange={(e) => setDomain(e.currentTarget.value)}
            error={error}
            w={360}
            autoComplete="off"
          />
          <Button type="submit" loading={busy}>
            {t('sending.domains.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function StateBadge({ state }: { state: TDomainState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOR[state]} variant="light" data-state={state}>
      {t(`sending.state.${state}`)}
    </Badge>
  );
}

function Copy({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('sending.records.copied') : label} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={label}
            data-testid={testId}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

function RecordRow({ record }: { record: TDnsRecord }) {
  const { t } = useTranslation();
  const check = record.check;
  return (
    <Table.Tr data-testid={`record-${record.kind}`} data-state={record.state}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {t(`sending.records.kind.${record.kind}`)}
        </Text>
        <Text size="xs" c="dimmed">
          {record.type}
        </Text>
      </Table.Td>
      <Table.Td maw={240}>
        <Group gap={4} wrap="nowrap" align="flex-start">
          <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="record-name">
            {record.name}
          </Text>
          <Copy value={record.name} label={t('sending.records.copy_name')} testId={`copy-name-${record.kind}`} />
        </Group>
      </Table.Td>
      <Table.Td maw={380}>
        <Group gap={4} wrap="nowrap" align="flex-start">
          <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="record-value">
            {record.value}
          </Text>
          <Copy value={record.value} label={t('sending.records.copy_value')} testId={`copy-value-${record.kind}`} />
        </Group>
        {check && check.result !== 'correct' && (
          <Stack gap={2} mt={6} data-testid="record-check">
            <Text size="xs" c={check.result === 'malformed' ? 'red' : 'orange'}>
              {t(`sending.check.${check.result}`)}
              {check.problem ? ` ${t(`errors.${check.problem}`, { defaultValue: '' })}` : ''}
            </Text>
            {check.found.length > 0 && (
              <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {t('sending.records.found')}: {check.found.join(' | ')}
              </Text>
            )}
          </Stack>
        )}
      </Table.Td>
      <Table.Td>
        <StateBadge state={record.state} />
      </Table.Td>
    </Table.Tr>
  );
}

function DomainCard({
  domain,
  canManage,
  fetchedAt,
}: {
  domain: TSendingDomain;
  canManage: boolean;
  fetchedAt: number;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [since, setSince] = useState(fetchedAt);
  const [seconds, setSeconds] = useState(domain.verifyInSeconds);
  const remaining = useCountdown(seconds, since);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const malformed = domain.records.some((r) => r.check?.result === 'malformed');

  const verify = async () => {
    try {
      const result = await verifyDomain(domain.id);
      setSince(Date.now());
      setSeconds(result.verifyInSeconds);
      setOutcome(result.state === 'verified' ? null : 'dns_setup_failed');
      queryClient.setQueryData(domainsQuery.queryKey, (old) =>
        old ? { ...old, domains: old.domains.map((d) => (d.id === result.id ? result : d)) } : old,
      );
      await queryClient.invalidateQueries({ queryKey: ['sending', 'setup'] });
      await queryClient.invalidateQueries({ queryKey: ['sending', 'settings'] });
      if (result.state === 'verified') showSnackbar({ status: 'success', message: t('sending.domains.verified') });
    } catch (e) {
      setOutcome(null);
      showSnackbar({ status: 'failed', message: errorText(e, t) });
    }
  };

  const remove = async () => {
    try {
      await removeDomain(domain.id);
      await queryClient.invalidateQueries({ queryKey: ['sending'] });
      showSnackbar({ status: 'success', message: t('sending.domains.removed') });
    } catch (e) {
      showSnackbar({ status: 'failed', message: errorText(e, t) });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid={`domain-${domain.domain}`} data-state={domain.state}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={700}>{domain.displayName}</Text>
            {domain.displayName !== domain.domain && (
              <Text size="xs" c="dimmed" ff="monospace">
                {domain.domain}
              </Text>
            )}
            <StateBadge state={domain.state} />
          </Group>
          {canManage && (
            <Button variant="subtle" color="red" size="xs" onClick={() => setConfirming(true)}>
              {t('sending.domains.remove')}
            </Button>
          )}
        </Group>
        {/* The steps are the brand's to take; anyone else reads the records and their state. */}
        <Text size="sm" fw={600}>
          {t(canManage ? 'sending.domains.step2' : 'sending.domains.records_heading')}
        </Text>
        <Text size="sm" c="dimmed">
          {t(canManage ? 'sending.domains.step2_help' : 'sending.domains.records_help')}
        </Text>
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" data-testid="domain-records">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('sending.records.type')}</Table.Th>
                <Table.Th>{t('sending.records.name')}</Table.Th>
                <Table.Th>{t('sending.records.value')}</Table.Th>
                <Table.Th>{t('sending.records.state')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {domain.records.map((r) => (
                <RecordRow key={r.kind} record={r} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {outcome && domain.state !== 'verified' && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="verify-outcome">
            {t(`errors.${outcome}`)}
            {malformed && <Text size="sm">{t('errors.dns_incorrect_format')}</Text>}
          </Alert>
        )}
        {canManage && (
          <Group gap="sm">
            <LockButton lockOnClick disabled={remaining > 0} onClick={verify} data-testid="verify-dns">
              {t('sending.domains.verify')}
            </LockButton>
            {remaining > 0 && (
              <Text size="sm" c="dimmed" data-testid="verify-countdown">
                {t('sending.domains.countdown', { time: clock(remaining) })}
              </Text>
            )}
          </Group>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('sending.domains.remove_title')}
        message={t('sending.domains.remove_message', { domain: domain.displayName })}
        danger
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}
