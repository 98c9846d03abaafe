import { Group, Modal, NativeSelect, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { THost } from '@yado/contracts/management';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { useProfile } from '../../shell/hooks/useProfile';
import { LockButton } from '../../ui/components/LockButton';
import { showSnackbar } from '../../ui/components/Snackbar';
import { createHost, hostChoicesQuery, updateHost } from '../api/hostsCalls';
import {
  EMPTY_HOST_FORM,
  hostFormProblems,
  hostFormValues,
  type THostFormErrors,
  type THostFormValues,
} from '../hostForm';
import { LEVELS, type TManagedLevel } from '../levels';
import { HostFields } from './HostFields';

export interface THostFormDialogProps {
  level: TManagedLevel;
  opened: boolean;
  /** The host to edit; without one the dialog creates a new one. */
  host?: THost | null;
  onClose: () => void;
  onSaved: (host: THost) => void;
}

type TErrors = THostFormErrors & { brandId?: string; hotelGroupId?: string };

/** Create or edit a brand, hotel group or hotel, with its logo (spec sections 2 and 5). */
export function HostFormDialog({ level, opened, host, onClose, onSaved }: THostFormDialogProps) {
  const { t } = useTranslation();
  const me = useProfile();
  const creating = !host;
  const config = LEVELS[level];
  const pickBrand =
    creating && level !== 'brand' && config.filterBrand !== undefined && me.entitlements[config.filterBrand];
  const pickGroup = creating && level === 'hotel';
  const [values, setValues] = useState<THostFormValues>(EMPTY_HOST_FORM);
  const [brandId, setBrandId] = useState('');
  const [hotelGroupId, setHotelGroupId] = useState('');
  const [errors, setErrors] = useState<TErrors>({});
  const brands = useQuery(hostChoicesQuery('brand', null, opened && pickBrand));
  const groups = useQuery(
    hostChoicesQuery('hotel_group', brandId || null, opened && pickGroup && (!pickBrand || brandId !== '')),
  );

  useEffect(() => {
    if (!opened) return;
    setValues(host ? hostFormValues(host) : EMPTY_HOST_FORM);
    setBrandId('');
    setHotelGroupId('');
    setErrors({});
  }, [opened, host]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const problems: TErrors = hostFormProblems(values, { logoRequired: true });
    if (pickBrand && brandId === '') problems.brandId = 'errors.brand_required';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    try {
      const saved = host
        ? await updateHost(level, host.id, values)
        : await createHost(level, values, {
            brandId: brandId || undefined,
            hotelGroupId: hotelGroupId || undefined,
          });
      showSnackbar({ status: 'success', message: t(creating ? 'management.form.created' : 'management.form.saved') });
      onSaved(saved);
    } catch (error) {
      const fields = fieldErrorKeys(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      centered
      title={t(`management.form.${creating ? 'create' : 'edit'}.${level}`)}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="host-form">
        <Stack gap="sm">
          {pickBrand && (
            <NativeSelect
              label={t('management.fields.brand')}
              name="brandId"
              required
              value={brandId}
              onChange={(event) => {
                setBrandId(event.currentTarget.value);
                setHotelGroupId('');
              }}
              error={errors.brandId ? t(errors.brandId) : null}
              data={[
                { value: '', label: t('management.form.choose_brand') },
                ...(brands.data ?? []).map((b) => ({ value: b.id, label: b.name })),
              ]}
            />
          )}
          {pickGroup && (
            <NativeSelect
              label={t('management.fields.hotel_group')}
              name="hotelGroupId"
              value={hotelGroupId}
              onChange={(event) => setHotelGroupId(event.currentTarget.value)}
              error={errors.hotelGroupId ? t(errors.hotelGroupId) : null}
              data={[
                { value: '', label: t('management.no_group') },
                ...(groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
              ]}
            />
          )}
          <HostFields
            values={values}
            errors={errors}
            onChange={setValues}
            bookingCode={level === 'hotel' ? 'edit' : undefined}
          />
          <Group justify="flex-end" gap="sm" mt="sm">
            <LockButton variant="default" onClick={onClose}>
              {t('common.cancel')}
            </LockButton>
            <LockButton type="submit" lockOnClick onClick={(event) => submit(event)}>
              {t(creating ? 'management.form.create_submit' : 'common.save')}
            </LockButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
