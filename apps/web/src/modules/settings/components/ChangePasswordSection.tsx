import { Group, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { PasswordRules } from '../../auth/components/PasswordRules';
import { confirmationProblem, newPasswordProblem, requiredProblem } from '../../auth/validation';
import { LockButton } from '../../ui/components/LockButton';
import { PasswordField } from '../../ui/components/PasswordField';
import { showSnackbar } from '../../ui/components/Snackbar';
import { changePassword } from '../api/settingsCalls';

type TField = 'currentPassword' | 'newPassword' | 'confirmation';
const EMPTY: Record<TField, string> = { currentPassword: '', newPassword: '', confirmation: '' };

/** Current, new and repeated password (spec section 5); the other sessions end on the server. */
export function ChangePasswordSection() {
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<TField, string | null>>>({});

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const found = {
      currentPassword: requiredProblem(values.currentPassword),
      newPassword: newPasswordProblem(values.newPassword),
      confirmation: confirmationProblem(values.newPassword, values.confirmation),
    };
    setErrors(found);
    if (found.currentPassword || found.newPassword || found.confirmation) return;
    try {
      await changePassword(values.currentPassword, values.newPassword);
      setValues(EMPTY);
      showSnackbar({ status: 'success', message: t('settings.password.changed') });
    } catch (error) {
      const fields = fieldErrorKeys(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  const field = (name: TField, label: string, autoComplete: string) => (
    <PasswordField
      label={t(label)}
      name={name}
      autoComplete={autoComplete}
      required
      value={values[name]}
      onChange={(event) => setValues({ ...values, [name]: event.currentTarget.value })}
      error={errors[name] ? t(errors[name]) : null}
    />
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="change-password-form">
      <Stack gap="sm" maw={420}>
        {field('currentPassword', 'settings.password.current', 'current-password')}
        {field('newPassword', 'settings.password.new', 'new-password')}
        <PasswordRules password={values.newPassword} />
        {field('confirmation', 'settings.password.confirmation', 'new-password')}
        <Group>
          <LockButton type="submit" lockOnClick onClick={(event) => submit(event)}>
            {t('settings.password.submit')}
          </LockButton>
        </Group>
      </Stack>
    </form>
  );
}
