import { Group, Loader, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { HostFields } from '../../management/components/HostFields';
import {
  EMPTY_HOST_FORM,
  hostFormProblems,
  hostFormValues,
  type THostFormErrors,
  type THostFormValues,
} from '../../management/hostForm';
import { HOSTS_QUERY_KEY } from '../../management/api/hostsCalls';
import { PROFILE_QUERY_KEY } from '../../shell/api/profile';
import { showSnackbar } from '../../ui/components/Snackbar';
import { LockButton } from '../../ui/components/LockButton';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import { hostInfoQuery, updateHostInfo } from '../api/settingsCalls';

/**
 * The acting host's name, address, contact and logo; editable with settings.update_host_info.
 * Leaving with changes not saved asks first.
 */
export function HostInfoSection({ editable }: { editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const host = useQuery(hostInfoQuery);
  const [values, setValues] = useState<THostFormValues>(EMPTY_HOST_FORM);
  const [errors, setErrors] = useState<THostFormErrors>({});
  const leaveGuard = useLeaveGuard(
    () => editable && !!host.data && JSON.stringify(values) !== JSON.stringify(hostFormValues(host.data)),
  );

  useEffect(() => {
    if (host.data) setValues(hostFormValues(host.data));
  }, [host.data]);

  if (host.isPending) return <Loader size="sm" />;
  if (host.isError) return <Text c="red">{errorText(host.error, t)}</Text>;

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    const problems = hostFormProblems(values, { logoRequired: true });
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    try {
      const saved = await updateHostInfo(values);
      queryClient.setQueryData(hostInfoQuery.queryKey, saved);
      // The shell's profile (dashboard, my profile) and the management lists show this host too.
      void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: HOSTS_QUERY_KEY });
      showSnackbar({ status: 'success', message: t('settings.host.saved') });
    } catch (error) {
      const fields = fieldErrorKeys(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} noValidate data-testid="host-info-form">
      <HostFields
        values={values}
        errors={errors}
        onChange={setValues}
        readOnly={!editable}
        bookingCode={host.data.level === 'hotel' ? 'read' : undefined}
      />
      {editable && (
        <Group justify="flex-end" mt="md">
          <LockButton type="submit" lockOnClick onClick={(event) => save(event)}>
            {t('common.save')}
          </LockButton>
        </Group>
      )}
      {leaveGuard}
    </form>
  );
}
