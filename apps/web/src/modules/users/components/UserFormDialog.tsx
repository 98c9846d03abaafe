import { Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { TUser } from '@yado/contracts/users';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { useProfile } from '../../shell/hooks/useProfile';
import { LockButton } from '../../ui/components/LockButton';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useDiscardGuard } from '../../ui/hooks/useDiscardGuard';
import { createUser, updateUser } from '../api/usersCalls';
import { useEmailTaken } from '../hooks/useEmailTaken';
import { EMPTY_USER_FORM, userFormProblems, type TUserFormErrors, type TUserFormValues } from '../userForm';
import { RoleSelect } from './RoleSelect';

const FIELD_KEYS = {
  fullName: 'full_name',
  nickName: 'nick_name',
  email: 'email',
  phoneNumber: 'phone_number',
} as const;

export interface TUserFormDialogProps {
  opened: boolean;
  /** The user to edit; without one the dialog adds a new user. */
  user?: TUser | null;
  onClose: () => void;
  onSaved: (user: TUser) => void;
}

/**
 * Add a user (who is mailed a link to set a password) or edit one (spec sections 2 and 5). Closing
 * it with something typed and not saved asks first.
 */
export function UserFormDialog({ opened, user, onClose, onSaved }: TUserFormDialogProps) {
  const { t, i18n } = useTranslation();
  const me = useProfile();
  const adding = !user;
  const [values, setValues] = useState<TUserFormValues>(EMPTY_USER_FORM);
  // The values the dialog opened with: anything else is the user's typing, not to be lost unasked.
  const [initial, setInitial] = useState<TUserFormValues>(EMPTY_USER_FORM);
  const [language, setLanguage] = useState<'ja' | 'en'>('ja');
  const [errors, setErrors] = useState<TUserFormErrors>({});
  const taken = useEmailTaken(values.email, opened && adding);

  useEffect(() => {
    if (!opened) return;
    setErrors({});
    setLanguage(i18n.language === 'en' ? 'en' : currentLanguage());
    const opening = user
      ? {
          fullName: user.fullName,
          nickName: user.nickName ?? '',
          email: user.email,
          phoneNumber: user.phoneNumber ?? '',
          role: user.role,
        }
      : EMPTY_USER_FORM;
    setValues(opening);
    setInitial(opening);
  }, [opened, user, i18n.language]);
  const discard = useDiscardGuard(
    () => (Object.keys(initial) as (keyof TUserFormValues)[]).some((k) => values[k] !== initial[k]),
    onClose,
  );

  const shownErrors: TUserFormErrors = { ...errors };
  if (adding && taken && !shownErrors.email) shownErrors.email = 'errors.email_registered';

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const problems = userFormProblems(values, { withEmail: adding });
    if (adding && taken && !problems.email) problems.email = 'errors.email_registered';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const person = {
      fullName: values.fullName.trim(),
      nickName: values.nickName.trim(),
      phoneNumber: values.phoneNumber.trim(),
      role: values.role,
    };
    try {
      const saved = user
        ? await updateUser(user.id, person)
        : await createUser({ ...person, email: values.email.trim(), language });
      showSnackbar({ status: 'success', message: t(adding ? 'users.form.added' : 'users.form.saved') });
      onSaved(saved);
    } catch (error) {
      const fields = fieldErrorKeys(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  const text = (field: 'fullName' | 'nickName' | 'email' | 'phoneNumber', props: { readOnly?: boolean } = {}) => (
    <TextInput
      label={t(`users.fields.${FIELD_KEYS[field]}`)}
      name={field}
      required
      {...props}
      value={values[field]}
      onChange={(event) => setValues({ ...values, [field]: event.currentTarget.value })}
      error={shownErrors[field] ? t(shownErrors[field]) : null}
    />
  );

  return (
    <Modal
      opened={opened}
      onClose={discard.requestClose}
      closeOnEscape={!discard.asking}
      size="lg"
      centered
      title={t(adding ? 'users.form.add_title' : 'users.form.edit_title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="user-form">
        <Stack gap="sm">
          <SimpleGrid cols={2}>
            {text('fullName')}
            {text('nickName')}
          </SimpleGrid>
          {text('email', { readOnly: !adding })}
          {text('phoneNumber')}
          <SimpleGrid cols={2}>
            <RoleSelect
              level={me.meta.level}
              name="role"
              label={t('users.fields.role')}
              emptyLabel={t('users.form.choose_role')}
              value={values.role}
              onChange={(role) => setValues({ ...values, role })}
              error={shownErrors.role ? t(shownErrors.role) : null}
              required
            />
            {adding && (
              <NativeSelect
                label={t('users.fields.language')}
                name="language"
                value={language}
                onChange={(event) => setLanguage(event.currentTarget.value === 'en' ? 'en' : 'ja')}
                data={[
                  { value: 'ja', label: t('language.japanese') },
                  { value: 'en', label: t('language.english') },
                ]}
              />
            )}
          </SimpleGrid>
          <Group justify="flex-end" gap="sm" mt="sm">
            <LockButton variant="default" onClick={discard.requestClose}>
              {t('common.cancel')}
            </LockButton>
            <LockButton type="submit" lockOnClick onClick={(event) => submit(event)}>
              {t(adding ? 'users.form.add_submit' : 'common.save')}
            </LockButton>
          </Group>
        </Stack>
      </form>
      {discard.dialog}
    </Modal>
  );
}
