import { Anchor, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { LockButton } from '../../ui/components/LockButton';
import { requestPasswordReset } from '../api/authCalls';
import { accountEmailProblem } from '../validation';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const problem = accountEmailProblem(email);
    if (problem) {
      setError(t(problem));
      return;
    }
    setError(null);
    try {
      const sent = await requestPasswordReset(email.trim(), currentLanguage());
      navigate(`/forgot-password/email-sent?email=${encodeURIComponent(sent.email)}`);
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {t('auth.forgot_password.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('auth.forgot_password.description')}
          </Text>
        </div>
        <TextInput
          label={t('auth.fields.email')}
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error}
          required
          data-autofocus
        />
        <LockButton type="submit" lockOnClick fullWidth onClick={(e) => submit(e)}>
          {t('auth.forgot_password.submit')}
        </LockButton>
        <Anchor component={Link} to="/login" size="sm" ta="center">
          {t('auth.back_to_login')}
        </Anchor>
      </Stack>
    </form>
  );
}
