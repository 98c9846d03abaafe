import { Alert, Anchor, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import * as authApi from '@yado/contracts/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { applyLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { request } from '../../../lib/http/request';
import { readLanguage } from '../../../lib/session/storage';
import { profileQuery } from '../../shell/api/profile';
import { startAddressFor } from '../../shell/navigation';
import { LockButton } from '../../ui/components/LockButton';
import { PasswordField } from '../../ui/components/PasswordField';
import { signIn } from '../api/authCalls';
import { accountEmailProblem, requiredProblem } from '../validation';

interface TLoginErrors {
  email?: string | null;
  password?: string | null;
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<TLoginErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  // Whoever signed out (or was sent here) leaves nothing of theirs in the cache. Emptied here, once
  // the signed-in pages are gone: emptied under them, the profile they suspend on was fetched
  // again without a token (a 401 and an error during render on the way out).
  useEffect(() => queryClient.clear(), [queryClient]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const found = { email: accountEmailProblem(email), password: requiredProblem(password) };
    setErrors(found);
    setFailure(null);
    if (found.email || found.password) return;
    try {
      await signIn(email.trim(), password);
      queryClient.removeQueries();
      const me = await queryClient.fetchQuery(profileQuery);
      // A language chosen in this browser wins and is kept on the account; otherwise the account's.
      const chosen = readLanguage();
      if (chosen === null) await applyLanguage(me.language);
      else if (chosen !== me.language) {
        request(authApi.updateLanguage, { body: { language: chosen } }).catch((error: unknown) =>
          console.warn('Could not store the language', error),
        );
      }
      navigate(`${startAddressFor(me.entitlements, me.features)}?loginSuccess=true`, { replace: true });
    } catch (error) {
      setFailure(errorText(error, t));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={t('auth.login.title')}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {t('auth.login.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('auth.login.subtitle')}
          </Text>
        </div>
        {params.get('successBanner') === 'true' && (
          <Alert color="teal" variant="light" data-testid="success-banner">
            {t('auth.login.success_banner')}
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" role="alert" data-testid="login-error">
            {failure}
          </Alert>
        )}
        <TextInput
          label={t('auth.fields.email')}
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={errors.email ? t(errors.email) : null}
          required
        />
        <PasswordField
          label={t('auth.fields.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password ? t(errors.password) : null}
          required
        />
        <Anchor component={Link} to="/forgot-password" size="sm" ta="right">
          {t('auth.login.forgot_link')}
        </Anchor>
        <LockButton type="submit" lockOnClick fullWidth onClick={(e) => submit(e)}>
          {t('auth.login.submit')}
        </LockButton>
      </Stack>
    </form>
  );
}
