import { Badge, Button, Code, Group, Loader, Alert, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { TRelayWebhook } from '@yado/contracts/deliverability';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { PasswordField } from '../../ui/components/PasswordField';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useConfirmedAction } from '../../ui/hooks/useConfirmedAction';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import { deleteRelayWebhook, relayWebhooksQuery, saveRelayWebhook } from '../api/deliverabilitySettingsCalls';

/**
 * The brand's relay webhooks (issue 25): for each provider, whether it is set up, the address to
 * give the provider (once set up: the address names the webhook), the secret shown masked (its last 4 characters), the SES subscription's state
 * and the last event; a new secret (and the SES topic) saved explicitly, a webhook removed after a
 * confirmation. Leaving with a secret typed but not saved asks first.
 */
export function RelayWebhooksSection() {
  const { t } = useTranslation();
  const hooks = useQuery(relayWebhooksQuery);
  const [dirty, setDirty] = useState<Record<string, boolean>>({});
  const leaveGuard = useLeaveGuard(() => Object.values(dirty).some(Boolean));
  const queryClient = useQueryClient();
  const { ask, dialog } = useConfirmedAction<'remove', TRelayWebhook>({
    perform: (_action, hook) => deleteRelayWebhook(hook.provider),
    doneText: (_action, hook) =>
      t('sending.relay.removed', { provider: t(`sending.relay.providers.${hook.provider}`) }),
    confirmText: (_action, hook) => ({
      title: t('sending.relay.remove_title'),
      message: t('sending.relay.remove_message', { provider: t(`sending.relay.providers.${hook.provider}`) }),
      confirmLabel: t('sending.relay.remove'),
      cancelLabel: t('common.cancel'),
      danger: true,
    }),
    onDone: () => queryClient.invalidateQueries({ queryKey: relayWebhooksQuery.queryKey }),
    refusalTestId: 'relay-refusal',
  });
  if (hooks.isPending) return <Loader size="sm" />;
  if (hooks.isError) {
    return (
      <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="relay-unavailable">
        {errorText(hooks.error, t)}
      </Alert>
    );
  }
  return (
    <Stack gap="sm" maw={860}>
      {hooks.data.map((hook) => (
        <RelayWebhook
          key={`${hook.provider}-${hook.updatedAt ?? 'none'}`}
          hook={hook}
          onDirty={(value) => setDirty((d) => ({ ...d, [hook.provider]: value }))}
          onRemove={() => ask('remove', hook)}
        />
      ))}
      {leaveGuard}
      {dialog}
    </Stack>
  );
}

function RelayWebhook({
  hook,
  onDirty,
  onRemove,
}: {
  hook: TRelayWebhook;
  onDirty: (dirty: boolean) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const language = currentLanguage();
  const [secret, setSecret] = useState('');
  const [topicArn, setTopicArn] = useState(hook.topicArn ?? '');
  const [errors, setErrors] = useState<{ secret?: string; topicArn?: string }>({});
  const [busy, setBusy] = useState(false);
  const ses = hook.provider === 'ses';
  const change = (next: { secret?: string; topicArn?: string }) => {
    const s = next.secret ?? secret;
    const a = next.topicArn ?? topicArn;
    if (next.secret !== undefined) setSecret(next.secret);
    if (next.topicArn !== undefined) setTopicArn(next.topicArn);
    onDirty(s !== '' || a !== (hook.topicArn ?? ''));
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!ses && !secret.trim() && !hook.secretHint) {
      setErrors({ secret: t('errors.webhook_secret_required') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await saveRelayWebhook(hook.provider, {
        ...(secret.trim() ? { secret: secret.trim() } : {}),
        ...(ses ? { topicArn: topicArn.trim() || null } : {}),
      });
      onDirty(false);
      await queryClient.invalidateQueries({ queryKey: relayWebhooksQuery.queryKey });
      showSnackbar({
        status: 'success',
        message: t('sending.relay.saved', { provider: t(`sending.relay.providers.${hook.provider}`) }),
      });
    } catch (error) {
      if (isApiError(error) && error.fields) {
        setErrors(
          Object.fromEntries(
            Object.entries(error.fields).map(([k, f]) => [
              k,
              t(`errors.${f.code}`, { defaultValue: t('errors.general') }),
            ]),
          ),
        );
      } else showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid="relay-webhook" data-provider={hook.provider}>
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Group justify="space-between">
            <Group gap="xs">
              <Text fw={600}>{t(`sending.relay.providers.${hook.provider}`)}</Text>
              <Badge variant="light" color={hook.id ? 'green' : 'gray'} data-testid="relay-state">
                {t(hook.id ? 'sending.relay.set_up' : 'sending.relay.not_set_up')}
              </Badge>
              {hook.subscription && (
                <Badge
                  variant="outline"
                  color={hook.subscription === 'confirmed' ? 'green' : 'orange'}
                  data-testid="relay-subscription"
                >
                  {t(`sending.relay.subscription.${hook.subscription}`)}
                </Badge>
              )}
            </Group>
            {hook.id && (
              <Button size="xs" variant="subtle" color="red" onClick={onRemove}>
                {t('sending.relay.remove')}
              </Button>
            )}
          </Group>
          {/* The address first: the help below tells what to do with it. It exists once the webhook is set up. */}
          {hook.url ? (
            <Stack gap={2}>
              <Text size="sm">{t('sending.relay.url')}</Text>
              <Code block data-testid="relay-url">
                {hook.url}
              </Code>
            </Stack>
          ) : (
            <Text size="sm" data-testid="relay-url-pending">
              {t('sending.relay.url_pending', { provider: t(`sending.relay.providers.${hook.provider}`) })}
            </Text>
          )}
          <Text size="xs" c="dimmed" data-testid="relay-help">
            {t(`sending.relay.help.${hook.provider}`)}
          </Text>
          {hook.id && (
            <Text size="xs" c="dimmed" data-testid="relay-last-event">
              {hook.lastEventAt
                ? t('sending.relay.last_event', { time: formatDate(hook.lastEventAt, language, { withTime: true }) })
                : t('sending.relay.no_event')}
            </Text>
          )}
          <Group align="flex-end" gap="sm" wrap="wrap">
            {!ses && (
              <PasswordField
                name={`${hook.provider}-secret`}
                label={t(`sending.relay.secret.${hook.provider}`)}
                description={hook.secretHint ? t('sending.relay.secret_kept', { hint: hook.secretHint }) : undefined}
                autoComplete="off"
                w={360}
                value={secret}
                onChange={(e) => change({ secret: e.currentTarget.value })}
                error={errors.secret}
              />
            )}
            {ses && (
              <TextInput
                name="ses-topic"
                label={t('sending.relay.topic_arn')}
                description={t('sending.relay.topic_arn_help')}
                placeholder={t('sending.relay.topic_arn_placeholder')}
                w={420}
                value={topicArn}
                onChange={(e) => change({ topicArn: e.currentTarget.value })}
                error={errors.topicArn}
              />
            )}
            <Button type="submit" variant={hook.id ? 'default' : 'filled'} loading={busy}>
              {t(hook.id ? 'common.save' : 'sending.relay.set_up_action')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
