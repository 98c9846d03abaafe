import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { LockButton } from '../../ui/components/LockButton';
import { PasswordField } from '../../ui/components/PasswordField';
import { isResetTokenValid, resetPassword } from '../api/authCalls';
import { PasswordRules } from '../components/PasswordRules';
import { confirmationProblem, newPasswordProblem } from '../validation';

const ERROR_PAGE = '/forgot-password/error';

export function ResetPasswordPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<{ password?: string | null; confirmation?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);

  const check = useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => isResetTokenValid(token),
    enabled: token !== '',
    gcTime: 0,
  });

  useEffect(() => {
    if (check.isError || check.data === false) navigate(ERROR_PAGE, { replace: true });
  }, [check.isError, check.data, navigate]);

  if (token === '') return <Navigate to={ERROR_PAGE} replace />;
  if (check.data !== true) {
    return (
      <Center py="xl" role="status" aria-label={t('common.loading')}>
        <Loader />
      </Center>
    );
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const found = { password: newPasswordProblem(password), confirmation: confirmationProblem(password, confirmation) };
    setErrors(found);
    setFailure(null);
    if (found.password || found.confirmation) return;
    try {
      await resetPassword(token, password);
      navigate('/login?successBanner=true', { replace: true });
    } catch (error) {
      if (isApiError(error) && error.code === 'reset_link_expired') {
        navigate(ERROR_PAGE, { replace: true });
        return;
      }
      const field = isApiError(error) ? error.fields?.password?.code : undefined;
      if (field && i18n.exists(`errors.${field}`)) setErrors({ password: `errors.${field}` });
      else setFailure(errorText(error, t));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {t('auth.reset_password.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('auth.reset_password.description')}
          </Text>
        </div>
        <PasswordField
          label={t('auth.reset_password.new_password')}
          name="new-password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password ? t(errors.password) : null}
          required
        />
        <PasswordRules password={password} />
        <PasswordField
          label={t('auth.reset_password.confirm_password')}
          name="confirm-password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.currentTarget.value)}
          error={errors.confirmation ? t(errors.confirmation) : null}
          required
        />
        {failure && (
          <Text c="red" size="sm" role="alert">
            {failure}
          </Text>
        )}
        <LockButton type="submit" lockOnClick fullWidth onClick={(e) => submit(e)}>
          {t('auth.reset_password.submit')}
        </LockButton>
      </Stack>
    </form>
  );
}
