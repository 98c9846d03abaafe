import { NumberInput, Stack, Switch, Text } from '@mantine/core';
import { HOLDOUT_PERCENT } from '@yado/contracts/experiments';
import { useTranslation } from 'react-i18next';

/** The holdout switch (10 % when turned on, 1 to 20 %) with what a holdout means. */
export function HoldoutSetting({
  value,
  onChange,
  readOnly,
  subject,
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  readOnly: boolean;
  subject: 'campaign' | 'scenario';
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Switch
        label={t('experiments.holdout.switch')}
        checked={value !== null}
        disabled={readOnly}
        onChange={(e) => onChange(e.currentTarget.checked ? HOLDOUT_PERCENT.default : null)}
        data-testid="holdout-switch"
      />
      <Text size="xs" c="dimmed">
        {t(`experiments.holdout.hint_${subject}`)}
      </Text>
      {value !== null && (
        <NumberInput
          label={t('experiments.holdout.percent')}
          min={HOLDOUT_PERCENT.min}
          max={HOLDOUT_PERCENT.max}
          allowDecimal={false}
          suffix="%"
          value={value}
          disabled={readOnly}
          onChange={(next) => onChange(typeof next === 'number' ? next : HOLDOUT_PERCENT.default)}
          w={160}
          data-testid="holdout-percent"
        />
      )}
    </Stack>
  );
}
