import { Select, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { timeZoneChoices } from '../../campaigns/zonedTime';
import type { THostFormErrors, THostFormValues } from '../hostForm';
import { LogoField } from './LogoField';

export interface THostFieldsProps {
  values: THostFormValues;
  errors: THostFormErrors;
  onChange: (values: THostFormValues) => void;
  readOnly?: boolean;
  logoRequired?: boolean;
  /** A hotel's booking-system code: edited in Management, shown read-only in settings. */
  bookingCode?: 'edit' | 'read';
}

/**
 * Name, address, email, phone, logo and time zone of a brand, hotel group or hotel; a hotel's
 * booking-system code.
 */
export function HostFields({
  values,
  errors,
  onChange,
  readOnly = false,
  logoRequired = true,
  bookingCode,
}: THostFieldsProps) {
  const { t } = useTranslation();
  const zones = useMemo(() => timeZoneChoices(values.timezone), [values.timezone]);
  const text = (field: 'name' | 'address' | 'email' | 'phone', required = false) => (
    <TextInput
      label={t(`hosts.fields.${field}`)}
      name={field}
      required={required}
      readOnly={readOnly}
      value={values[field]}
      onChange={(event) => onChange({ ...values, [field]: event.currentTarget.value })}
      error={errors[field] ? t(errors[field]) : null}
    />
  );
  return (
    <Stack gap="sm">
      <LogoField
        value={values.logoUrl}
        onChange={(logoUrl) => onChange({ ...values, logoUrl })}
        error={errors.logoUrl}
        disabled={readOnly}
        required={logoRequired}
      />
      {text('name', true)}
      {text('address', true)}
      {text('email')}
      {text('phone')}
      <Select
        label={t('hosts.fields.timezone')}
        description={t('hosts.timezone_hint')}
        name="timezone"
        data={zones}
        value={values.timezone}
        searchable
        allowDeselect={false}
        readOnly={readOnly}
        onChange={(value) => value && onChange({ ...values, timezone: value })}
        error={errors.timezone ? t(errors.timezone) : null}
      />
      {bookingCode && (
        <TextInput
          label={t('hosts.fields.booking_hotel_code')}
          description={t(
            bookingCode === 'edit' ? 'hosts.booking_hotel_code_hint' : 'hosts.booking_hotel_code_read_hint',
          )}
          name="bookingHotelCode"
          placeholder={bookingCode === 'edit' ? 'SKR-SHINJUKU' : undefined}
          autoComplete="off"
          maxLength={100}
          readOnly={readOnly || bookingCode === 'read'}
          value={values.bookingHotelCode}
          onChange={(event) => onChange({ ...values, bookingHotelCode: event.currentTarget.value })}
          error={errors.bookingHotelCode ? t(errors.bookingHotelCode) : null}
        />
      )}
    </Stack>
  );
}
