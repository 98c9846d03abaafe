import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import {
  FREQUENCY_CAP_BOUNDS,
  frequencyCapFits,
  QUIET_HOURS_TIME,
  SETTINGS_FIELDS,
  type TCampaignEmailSettings,
  type TCampaignEmailValues,
  type TSettingsField,
} from '@yado/contracts/sending';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import { emailSettingsQuery, saveEmailSettings } from '../api/sendingCalls';

type TDraft = Record<TSettingsField, string>;

/** senderEmail → sender_email: catalogue keys are snake_case. */
const fieldKey = (field: TSettingsField) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const TEXT_FIELDS = [
  'senderEmail',
  'senderName',
  'replyTo',
  'unsubscribedMessage',
  'unsubscribedMessageEn',
  'footerSenderName',
  'footerPostalAddress',
  'quietHoursStart',
  'quietHoursEnd',
] as const;
const NUMBER_FIELDS = ['frequencyCapCount', 'frequencyCapDays'] as const;

const draftOf = (own: TCampaignEmailValues): TDraft =>
  Object.fromEntries(Object.entries(own).map(([k, v]) => [k, v === null ? '' : String(v)])) as TDraft;

function valuesOf(draft: TDraft): TCampaignEmailValues {
  const values: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) values[f] = draft[f].trim() === '' ? null : draft[f].trim();
  for (const f of NUMBER_FIELDS) values[f] = draft[f] === '' ? null : Number(draft[f]);
  values.defaultLanguage = draft.defaultLanguage === '' ? null : draft.defaultLanguage;
  return values as TCampaignEmailValues;
}

/**
 * Campaign email settings of the acting host. An empty field inherits: the form says from where
 * (the brand, the hotel group, or the product's default) and what the value would be. A value out
 * of range is refused with the range, never changed to fit; leaving with changes asks first.
 */
export function CampaignEmailSettingsForm() {
  const { t } = useTranslation();
  const settings = useQuery(emailSettingsQuery);
  if (settings.isPending) return <Loader size="sm" />;
  if (settings.isError) {
    return (
      <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="campaign-email-unavailable">
        {errorText(settings.error, t)}
      </Alert>
    );
  }
  return <SettingsForm key={settings.dataUpdatedAt} settings={settings.data} />;
}

function SettingsForm({ settings }: { settings: TCampaignEmailSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TDraft>(() => draftOf(settings.own));
  const leaveGuard = useLeaveGuard(() => {
    const saved = draftOf(settings.own);
    return SETTINGS_FIELDS.some((f) => draft[f] !== saved[f]);
  });
  const [errors, setErrors] = useState<Partial<Record<TSettingsField, string>>>({});
  const [busy, setBusy] = useState(false);
  // The server refused the sender's domain: the form links to where a domain is authenticated.
  const [foreignDomain, setForeignDomain] = useState(false);
  const set = (field: TSettingsField) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  /** "Inherited from さくらホテルズ: …" under an empty field, or the default's value. */
  const inheritedHint = (field: TSettingsField): string | undefined => {
    const value = settings.inherited[field];
    if (draft[field] !== '' || value === null) return undefined;
    const source = settings.inheritedFrom[field];
    const shown = field === 'defaultLanguage' ? t(`sending.settings.language.${String(value)}`) : String(value);
    if (source?.level === 'default') return t('sending.settings.default_value', { value: shown });
    return t('sending.settings.inherited_from', { host: source?.hostName ?? '', value: shown });
  };
  const required = (field: TSettingsField) => settings.inherited[field] === null;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const missing: Partial<Record<TSettingsField, string>> = {};
    for (const f of ['senderName', 'unsubscribedMessage'] as const)
      if (required(f) && draft[f].trim() === '') missing[f] = t('validation.required');
    for (const f of ['quietHoursStart', 'quietHoursEnd'] as const)
      if (draft[f].trim() !== '' && !QUIET_HOURS_TIME.test(draft[f].trim()))
        missing[f] = t('sending.settings.invalid_time');
    for (const f of NUMBER_FIELDS)
      if (draft[f] !== '' && !frequencyCapFits(f, Number(draft[f])))
        missing[f] = t('sending.settings.out_of_range', FREQUENCY_CAP_BOUNDS[f]);
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    setForeignDomain(false);
    try {
      const saved = await saveEmailSettings(valuesOf(draft));
      queryClient.setQueryData(emailSettingsQuery.queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: ['sending', 'setup'] });
      showSnackbar({ status: 'success', message: t('sending.settings.saved') });
    } catch (e) {
      setForeignDomain(isApiError(e) && e.fields?.senderEmail?.code === 'sender_domain_not_verified');
      if (isApiError(e) && e.fields) {
        setErrors(
          Object.fromEntries(
            Object.entries(e.fields).map(([k, f]) => [
              k,
              f.code === 'frequency_cap_out_of_range' && k in FREQUENCY_CAP_BOUNDS
                ? t('sending.settings.out_of_range', FREQUENCY_CAP_BOUNDS[k as (typeof NUMBER_FIELDS)[number]])
                : t(`errors.${f.code}`, { defaultValue: t('errors.general') }),
            ]),
          ),
        );
      } else showSnackbar({ status: 'failed', message: errorText(e, t) });
    } finally {
      setBusy(false);
    }
  };

  const text = (
    field: (typeof TEXT_FIELDS)[number],
    extra: { multiline?: boolean; placeholder?: string; help?: string } = {},
  ) => {
    const hint = inheritedHint(field);
    const props = {
      name: field,
      label: t(`sending.settings.fields.${fieldKey(field)}`),
      value: draft[field],
      onChange: (e: { currentTarget: { value: string } }) => set(field)(e.currentTarget.value),
      error: errors[field],
      description: extra.help && hint ? `${extra.help} ${hint}` : (extra.help ?? hint),
      withAsterisk: (field === 'senderName' || field === 'unsubscribedMessage') && required(field),
      placeholder: extra.placeholder,
    };
    return extra.multiline ? <Textarea {...props} rows={3} /> : <TextInput {...props} />;
  };

  // An equal start and end mean no quiet hours (campaigns go at any hour): said, as the value alone does not.
  const quietAt = (f: 'quietHoursStart' | 'quietHoursEnd') => draft[f].trim() || String(settings.inherited[f] ?? '');
  const noQuietHours =
    QUIET_HOURS_TIME.test(quietAt('quietHoursStart')) && quietAt('quietHoursStart') === quietAt('quietHoursEnd');

  const domain = settings.senderDomain;
  return (
    <form onSubmit={submit} noValidate data-testid="campaign-email-form">
      <Stack gap="md" maw={760}>
        {settings.hostLevel !== 'brand' && (
          <Text size="sm" c="dimmed">
            {t('sending.settings.inherit_help')}
          </Text>
        )}
        {foreignDomain && (
          // The field itself says why; this only leads to where the domain is authenticated.
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="sender-domain-refused">
            <Anchor component={Link} to="/settings#domain" size="sm">
              {t('sending.settings.go_to_domains')}
            </Anchor>
          </Alert>
        )}
        {domain && domain.state !== 'verified' && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="sender-domain-warning">
            <Text size="sm">{t('sending.settings.domain_not_verified', { domain: domain.domain })}</Text>
            <Anchor component={Link} to="/settings#domain" size="sm">
              {t('sending.settings.go_to_domains')}
            </Anchor>
          </Alert>
        )}
        <Text fw={600}>{t('sending.settings.sender')}</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('senderEmail', { placeholder: 'info@example.jp' })}
          {text('senderName')}
          {text('replyTo')}
          <Select
            name="defaultLanguage"
            label={t('sending.settings.fields.default_language')}
            description={inheritedHint('defaultLanguage')}
            data={[
              { value: '', label: t('sending.settings.inherit') },
              { value: 'ja', label: t('sending.settings.language.ja') },
              { value: 'en', label: t('sending.settings.language.en') },
            ]}
            value={draft.defaultLanguage}
            onChange={(v) => set('defaultLanguage')(v ?? '')}
            allowDeselect={false}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('unsubscribedMessage', { multiline: true })}
          {text('unsubscribedMessageEn', {
            multiline: true,
            help: t('sending.settings.unsubscribed_message_en_help'),
          })}
        </SimpleGrid>
        <Text fw={600}>{t('sending.settings.footer')}</Text>
        <Text size="sm" c="dimmed">
          {t('sending.settings.footer_help')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('footerSenderName')}
          {text('footerPostalAddress', { multiline: true })}
        </SimpleGrid>
        <Text fw={600}>{t('sending.settings.limits')}</Text>
        <Text size="sm" c="dimmed">
          {t('sending.settings.limits_help', { timeZone: settings.timeZone })}
        </Text>
        {/* The frequency cap and the quiet hours: where the campaign schedule's quiet-hours warning leads (#quiet-hours). */}
        <SimpleGrid cols={{ base: 2, sm: 4 }} id="quiet-hours">
          {NUMBER_FIELDS.map((f) => (
            <NumberInput
              key={f}
              name={f}
              label={t(`sending.settings.fields.${fieldKey(f)}`)}
              description={[t('sending.settings.range', FREQUENCY_CAP_BOUNDS[f]), inheritedHint(f)]
                .filter(Boolean)
                .join(' · ')}
              min={FREQUENCY_CAP_BOUNDS[f].min}
              max={FREQUENCY_CAP_BOUNDS[f].max}
              // Out of range is refused with the range (on save), not moved into it as the user leaves the field.
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              value={draft[f]}
              onChange={(v) => set(f)(v === '' ? '' : String(v))}
              error={errors[f]}
            />
          ))}
          {text('quietHoursStart', { placeholder: '21:00', help: t('sending.settings.time_range') })}
          {text('quietHoursEnd', { placeholder: '08:00', help: t('sending.settings.time_range') })}
        </SimpleGrid>
        {noQuietHours && (
          <Text size="sm" c="orange.8" data-testid="no-quiet-hours">
            {t('sending.settings.no_quiet_hours', { time: quietAt('quietHoursStart') })}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={busy}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
      {leaveGuard}
    </form>
  );
}
