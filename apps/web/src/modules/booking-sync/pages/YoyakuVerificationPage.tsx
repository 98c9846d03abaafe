import { Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import type { TBookingStatus } from '@yado/contracts/booking';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { bookingStatusQuery, connectBookingSystem } from '../api/bookingCalls';
import { takePendingConnection } from '../pendingConnection';

/** How long the outcome stays before the redirect page takes over. */
const SHOW_SUCCESS_MS = 2500;

type TState =
  | { kind: 'verifying' }
  | { kind: 'connected'; status: TBookingStatus }
  | { kind: 'failed'; message: string }
  | { kind: 'nothing' };

/**
 * /yoyaku-verification (spec section 2): verifies the account ID and API key entered in settings
 * through the server, which asks the booking system, and shows the outcome in the user's language.
 */
export function YoyakuVerificationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<TState>({ kind: 'verifying' });
  const started = useRef(false);

  useEffect(() => {
    // Once: React's development double effects must not send the key twice.
    if (started.current) return;
    started.current = true;
    const pending = takePendingConnection();
    if (!pending) {
      setState({ kind: 'nothing' });
      return;
    }
    connectBookingSystem(pending.accountId, pending.apiKey)
      .then((status) => {
        queryClient.setQueryData(bookingStatusQuery.queryKey, status);
        setState({ kind: 'connected', status });
      })
      .catch((error: unknown) => setState({ kind: 'failed', message: errorText(error, t) }));
  }, [queryClient, t]);

  useEffect(() => {
    if (state.kind !== 'connected') return;
    const timer = setTimeout(() => navigate('/yoyaku-verification/redirect', { replace: true }), SHOW_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [state.kind, navigate]);

  return (
    <Stack gap="md" align="center" ta="center" data-testid="yoyaku-verification" data-state={state.kind}>
      <Title order={2} size="h3">
        {t('booking_sync.verification.title')}
      </Title>
      {state.kind === 'verifying' && (
        <>
          <Loader />
          <Text size="sm">{t('booking_sync.verification.verifying')}</Text>
        </>
      )}
      {state.kind === 'connected' && (
        <>
          <ThemeIcon size={56} radius="xl" variant="light" color="green">
            <IconCircleCheck size={30} />
          </ThemeIcon>
          <Text size="sm" data-testid="yoyaku-verification-message">
            {t('booking_sync.verification.connected', { account: state.status.connection?.accountName ?? '' })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('booking_sync.verification.first_sync')}
          </Text>
          <Button component={Link} to="/yoyaku-verification/redirect" replace fullWidth>
            {t('booking_sync.verification.continue')}
          </Button>
        </>
      )}
      {(state.kind === 'failed' || state.kind === 'nothing') && (
        <>
          <ThemeIcon size={56} radius="xl" variant="light" color="red">
            <IconPlugConnectedX size={30} />
          </ThemeIcon>
          <Text size="sm" data-testid="yoyaku-verification-message">
            {state.kind === 'failed' ? state.message : t('booking_sync.verification.nothing')}
          </Text>
          <Button component={Link} to="/settings" fullWidth>
            {t('booking_sync.back_to_settings')}
          </Button>
        </>
      )}
    </Stack>
  );
}
