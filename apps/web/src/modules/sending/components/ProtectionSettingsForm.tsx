import { Alert, Button, Group, Loader, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import {
  PROTECTION_BOUNDS,
  PROTECTION_DEFAULTS,
  PROTECTION_FIELDS,
  type TProtection,
} from '@yado/contracts/deliverability';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import { protectionQuery, saveProtection } from '../api/deliverabilitySettingsCalls';

type TField = (typeof PROTECTION_FIELDS)[number];
type TDraft = Record<TField, string>;

const FIELD_KEY: Record<TField, string> = {
  minSent: 'min_sent',
  hardBouncePct: 'hard_bounce_pct',
  complaintPct: 'complaint_pct',
};

const draftOf = (p: TProtection): TDraft => ({
  minSent: String(p.minSent),
  hardBouncePct: String(p.hardBouncePct),
  complaintPct: String(p.complaintPct),
});

/**
 * The brand's protection (issue 25): after how many mails a campaign's hard-bounce and complaint
 * rates count, and at which rates it pauses itself. Explicit save; leaving with changes asks first.
 */
export function ProtectionSettingsForm() {
  const { t } = useTranslation();
  const protection = useQuery(protectionQuery);
  if (protection.isPending) return <Loader size="sm" />;
  if (protection.isError) {
    return (
      <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="protection-unavailable">
        {errorText(protection.error, t)}
      </Alert>
    );
  }
  return <Form key={protection.dataUpdatedAt} saved={protection.data} />;
}

function Form({ saved }: { saved: TProtection }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TDraft>(() => draftOf(saved));
  const [errors, setErrors] = useState<Partial<Record<TField, string>>>({});
  const [busy, setBusy] = useState(false);
  const dirty = () => PROTECTION_FIELDS.some((f) => draft[f] !== draftOf(saved)[f]);
  const leaveGuard = useLeaveGuard(dirty);

  const rangeText = (f: TField) => t('sending.protection.range', PROTECTION_BOUNDS[f]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const found: Partial<Record<TField, string>> = {};
    for (const f of PROTECTION_FIELDS) {
      const value = Number(draft[f]);
      const { min, max } = PROTECTION_BOUNDS[f];
      if (draft[f] === '') found[f] = t('validation.required');
      else if (!(value >= min && value <= max)) found[f] = `${t('errors.protection_out_of_range')} (${rangeText(f)})`;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const values = Object.fromEntries(PROTECTION_FIELDS.map((f) => [f, Number(draft[f])])) as TProtection;
      queryClient.setQueryData(protectionQuery.queryKey, await saveProtection(values));
      showSnackbar({ status: 'success', message: t('sending.protection.saved') });
    } catch (error) {
      if (isApiError(error) && error.fields) {
        setErrors(
          Object.fromEntries(
            Object.entries(error.fields).map(([k, f]) => [
              k,
              `${t(`errors.${f.code}`, { defaultValue: t('errors.general') })} (${rangeText(k as TField)})`,
            ]),
          ),
        );
      } else showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="protection-form">
      <Stack gap="md" maw={760}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {PROTECTION_FIELDS.map((f) => (
            <NumberInput
              key={f}
              name={f}
              label={t(`sending.protection.fields.${FIELD_KEY[f]}`)}
              description={`${rangeText(f)} · ${t('sending.protection.default', { value: PROTECTION_DEFAULTS[f] })}`}
              min={PROTECTION_BOUNDS[f].min}
              max={PROTECTION_BOUNDS[f].max}
              // Out of range is refused with the range (on save), not moved into it as the user leaves the field.
              clampBehavior="none"
              allowDecimal={f !== 'minSent'}
              decimalScale={f === 'minSent' ? 0 : 2}
              step={f === 'minSent' ? 100 : f === 'hardBouncePct' ? 0.5 : 0.05}
              thousandSeparator={f === 'minSent' ? ',' : undefined}
              value={draft[f]}
              onChange={(v) => setDraft((d) => ({ ...d, [f]: v === '' ? '' : String(v) }))}
              error={errors[f]}
            />
          ))}
        </SimpleGrid>
        <Text size="sm" c="dimmed" data-testid="protection-warning-levels">
          {t('sending.protection.warning_levels', {
            hard: Number(draft.hardBouncePct) / 2 || '-',
            complaint: Math.round((Number(draft.complaintPct) / 3) * 1000) / 1000 || '-',
          })}
        </Text>
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
