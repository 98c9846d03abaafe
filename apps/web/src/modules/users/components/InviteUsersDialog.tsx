import { Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { LockButton } from '../../ui/components/LockButton';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useDiscardGuard } from '../../ui/hooks/useDiscardGuard';
import { inviteUsers } from '../api/usersCalls';
import { invitationProblem, parseEmailList, repeatedEmails } from '../userForm';
import { RoleSelect } from './RoleSelect';

export interface TInviteUsersDialogProps {
  opened: boolean;
  onClose: () => void;
  onInvited: () => void;
}

/** Gives users registered at other hosts a role here; several emails at once (spec section 5). */
export function InviteUsersDialog({ opened, onClose, onInvited }: TInviteUsersDialogProps) {
  const { t } = useTranslation();
  const me = useProfile();
  const [text, setText] = useState('');
  const [role, setRole] = useState('');
  const [errors, setErrors] = useState<{ emails?: string | null; role?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);
  // The addresses a refusal is about (repeated, unregistered, already here), named under it.
  const [offending, setOffending] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) return;
    setText('');
    setRole('');
    setErrors({});
    setFailure(null);
    setOffending(null);
  }, [opened]);
  // Typed addresses or a chosen role are not thrown away by a stray Escape or click outside.
  const discard = useDiscardGuard(() => text.trim() !== '' || role !== '', onClose);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const emails = parseEmailList(text);
    const found = { emails: invitationProblem(emails), role: role === '' ? 'errors.role_required' : null };
    setErrors(found);
    setFailure(null);
    setOffending(found.emails === 'errors.duplicate_input' ? repeatedEmails(emails).join(', ') : null);
    if (found.emails || found.role) return;
    try {
      const { invited } = await inviteUsers(emails, role);
      showSnackbar({ status: 'success', message: t('users.invite.done', { count: invited.length }) });
      onInvited();
    } catch (error) {
      setFailure(errorText(error, t));
      const emails = isApiError(error) ? error.params?.emails : undefined;
      setOffending(typeof emails === 'string' && emails !== '' ? emails : null);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={discard.requestClose}
      closeOnEscape={!discard.asking}
      size="lg"
      centered
      title={t('users.invite.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="invite-form">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('users.invite.description')}
          </Text>
          <Textarea
            label={t('users.invite.emails')}
            description={t('users.invite.emails_hint')}
            name="emails"
            required
            autosize
            minRows={3}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={errors.emails ? t(errors.emails) : null}
          />
          <RoleSelect
            level={me.meta.level}
            name="role"
            label={t('users.fields.role')}
            emptyLabel={t('users.form.choose_role')}
            value={role}
            onChange={setRole}
            error={errors.role ? t(errors.role) : null}
            required
          />
          {failure && (
            <Text c="red" size="sm" role="alert">
              {failure}
            </Text>
          )}
          {offending && (
            <Text c="red" size="sm" data-testid="invite-offending">
              {t('users.invite.offending', { emails: offending })}
            </Text>
          )}
          <Group justify="flex-end" gap="sm" mt="sm">
            <LockButton variant="default" onClick={discard.requestClose}>
              {t('common.cancel')}
            </LockButton>
            <LockButton type="submit" lockOnClick onClick={(event) => submit(event)}>
              {t('users.invite.submit')}
            </LockButton>
          </Group>
        </Stack>
      </form>
      {discard.dialog}
    </Modal>
  );
}
