import { Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TCustomer } from '@yado/contracts/customers';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { useProfile } from '../../shell/hooks/useProfile';
import { LockButton } from '../../ui/components/LockButton';
import { showSnackbar } from '../../ui/components/Snackbar';
import { createCustomer, hotelChoicesQuery, updateCustomer } from '../api/customersCalls';
import {
  customerFormProblems,
  customerFormValues,
  customerInput,
  EMPTY_CUSTOMER_FORM,
  withLocation,
  type TCustomerFormErrors,
  type TCustomerFormValues,
  type TGender,
} from '../customerForm';
import { LocationFields } from './LocationFields';

type TTextField = 'lastName' | 'firstName' | 'phone' | 'email' | 'idNumber' | 'address';
const LABELS: Record<TTextField, string> = {
  lastName: 'last_name',
  firstName: 'first_name',
  phone: 'phone',
  email: 'email',
  idNumber: 'id_number',
  address: 'address',
};
const REQUIRED = new Set<TTextField>(['lastName', 'firstName', 'phone', 'address']);

export interface TCustomerFormDialogProps {
  opened: boolean;
  /** The customer to edit; without one the dialog adds a customer. */
  customer?: TCustomer | null;
  onClose: () => void;
  onSaved: (customer: TCustomer) => void;
}

const todayIso = () => new Date().toISOString().slice(0, 10);

/**
 * Add or edit a customer (spec sections 3 and 5). The fields behind the customer_new_fields flag
 * (ID number, gender, birth date, country, prefecture, city) stay in the form's values while
 * hidden, so an edit never clears them.
 */
export function CustomerFormDialog({ opened, customer, onClose, onSaved }: TCustomerFormDialogProps) {
  const { t } = useTranslation();
  const me = useProfile();
  const adding = !customer;
  const newFields = me.features.customer_new_fields;
  const level = me.meta.level;
  const asksHotel = adding && level !== 'hotel';
  const [values, setValues] = useState<TCustomerFormValues>(EMPTY_CUSTOMER_FORM);
  const [errors, setErrors] = useState<TCustomerFormErrors>({});
  const hotels = useQuery(hotelChoicesQuery(opened && asksHotel));

  useEffect(() => {
    if (!opened) return;
    setErrors({});
    setValues(customer ? customerFormValues(customer) : EMPTY_CUSTOMER_FORM);
  }, [opened, customer]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    // A brand may keep a customer at the brand alone; a hotel group must say which hotel.
    const problems = customerFormProblems(values, {
      hotelRequired: asksHotel && level !== 'brand',
      today: todayIso(),
    });
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    try {
      const input = customerInput(values);
      const saved = customer
        ? await updateCustomer(customer.id, input)
        : await createCustomer({ ...input, hotelId: values.hotelId || undefined });
      showSnackbar({ status: 'success', message: t(adding ? 'customers.done.added' : 'customers.done.saved') });
      onSaved(saved);
    } catch (error) {
      const fields = fieldErrorKeys(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  const text = (field: TTextField, props: { type?: string } = {}) => (
    <TextInput
      label={t(`customers.fields.${LABELS[field]}`)}
      name={field}
      required={REQUIRED.has(field)}
      {...props}
      value={values[field]}
      onChange={(event) => setValues({ ...values, [field]: event.currentTarget.value })}
      error={errors[field] ? t(errors[field]) : null}
    />
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      centered
      title={t(adding ? 'customers.form.add_title' : 'customers.form.edit_title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="customer-form">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('lastName')}
            {text('firstName')}
            {text('phone', { type: 'tel' })}
            {text('email', { type: 'email' })}
          </SimpleGrid>
          {newFields && (
            <>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                {text('idNumber')}
                <NativeSelect
                  label={t('customers.fields.gender')}
                  name="gender"
                  value={values.gender}
                  onChange={(event) => setValues({ ...values, gender: event.currentTarget.value as TGender | '' })}
                  data={[
                    { value: '', label: '-' },
                    ...(['male', 'female', 'prefer_not_to_say'] as const).map((g) => ({
                      value: g,
                      label: t(`customers.gender.${g}`),
                    })),
                  ]}
                />
                <TextInput
                  type="date"
                  label={t('customers.fields.date_of_birth')}
                  name="dateOfBirth"
                  max={todayIso()}
                  value={values.dateOfBirth}
                  onChange={(event) => setValues({ ...values, dateOfBirth: event.currentTarget.value })}
                  error={errors.dateOfBirth ? t(errors.dateOfBirth) : null}
                />
              </SimpleGrid>
              <LocationFields
                values={values}
                errors={errors}
                onChange={(field, value) => setValues((v) => withLocation(v, field, value))}
              />
            </>
          )}
          {text('address')}
          {asksHotel && (
            <NativeSelect
              label={t('customers.fields.hotel')}
              name="hotelId"
              required={level !== 'brand'}
              value={values.hotelId}
              onChange={(event) => setValues({ ...values, hotelId: event.currentTarget.value })}
              data={[
                { value: '', label: t('customers.form.choose_hotel') },
                ...(hotels.data ?? []).map((h) => ({ value: h.id, label: h.name })),
              ]}
              error={errors.hotelId ? t(errors.hotelId) : null}
            />
          )}
          <Group justify="flex-end" gap="sm" mt="sm">
            <LockButton variant="default" onClick={onClose}>
              {t('common.cancel')}
            </LockButton>
            <LockButton type="submit" lockOnClick onClick={(event) => submit(event)}>
              {t(adding ? 'customers.form.add_submit' : 'common.save')}
            </LockButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
