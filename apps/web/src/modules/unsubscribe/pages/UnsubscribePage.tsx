import { Button, Image, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconLinkOff, IconMailCheck } from '@tabler/icons-react';
import type { TUnsubscribePage } from '@yado/contracts/tracking';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { applyLanguage, currentLanguage } from '../../../i18n/i18n';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { undoUnsubscribe, unsubscribeFromPage } from '../api/unsubscribeCalls';

type TState =
  | { kind: 'working' }
  | { kind: 'unsubscribed'; page: TUnsubscribePage }
  | { kind: 'resubscribed'; page: TUnsubscribePage }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

/**
 * /unsubscribe (spec section 2): the footer link of every campaign mail opens it. Opening it
 * unsubscribes the guest from the whole brand's mail at once (no sign-in, no confirmation), then
 * shows the brand's unsubscribed message in the guest's language and a way to undo.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<TState>({ kind: 'working' });
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  const show = useCallback(
    async (kind: 'unsubscribed' | 'resubscribed', page: TUnsubscribePage) => {
      // The guest's language, unless the link or the guest chose one.
      if (!params.get('lang') && page.language !== currentLanguage()) await applyLanguage(page.language);
      setState({ kind, page });
    },
    [params],
  );

  const fail = useCallback(
    (error: unknown) => {
      if (isApiError(error) && error.code === 'unsubscribe_link_invalid') setState({ kind: 'invalid' });
      else setState({ kind: 'failed', message: errorText(error, t) });
    },
    [t],
  );

  useEffect(() => {
    // Once: React's development double effects must not send it twice (a second would be harmless).
    if (started.current) return;
    started.current = true;
    if (!token) {
      setState({ kind: 'invalid' });
      return;
    }
    unsubscribeFromPage(token)
      .then((page) => show('unsubscribed', page))
      .catch(fail);
  }, [token, show, fail]);

  const act = (call: (token: string) => Promise<TUnsubscribePage>, kind: 'unsubscribed' | 'resubscribed') => {
    setBusy(true);
    call(token)
      .then((page) => show(kind, page))
      .catch(fail)
      .finally(() => setBusy(false));
  };

  return (
    <Stack gap="md" align="center" ta="center" data-testid="unsubscribe-page" data-state={state.kind}>
      {(state.kind === 'unsubscribed' || state.kind === 'resubscribed') && <BrandHeader page={state.page} />}
      {state.kind === 'working' && (
        <>
          <Title order={2} size="h3">
            {t('unsubscribe.working')}
          </Title>
          <Loader />
        </>
      )}
      {state.kind === 'unsubscribed' && (
        <>
          <ThemeIcon size={56} radius="xl" variant="light" color="green">
            <IconCircleCheck size={30} />
          </ThemeIcon>
          <Title order={2} size="h3">
            {t('unsubscribe.done_title')}
          </Title>
          <Text size="sm" data-testid="unsubscribe-message" style={{ whiteSpace: 'pre-line' }}>
            {/* In the page's language: the link's or the guest's choice may differ from the guest's. */}
            {state.page.messages[currentLanguage()] ??
              t('unsubscribe.default_message', { brand: state.page.brandName })}
          </Text>
          {state.page.canUndo ? (
            <>
              <Text size="xs" c="dimmed">
                {t('unsubscribe.undo_hint')}
              </Text>
              <Button
                variant="light"
                loading={busy}
                onClick={() => act(undoUnsubscribe, 'resubscribed')}
                data-testid="unsubscribe-undo"
              >
                {t('unsubscribe.undo')}
              </Button>
            </>
          ) : (
            <Text size="xs" c="dimmed">
              {t('unsubscribe.no_undo')}
            </Text>
          )}
        </>
      )}
      {state.kind === 'resubscribed' && (
        <>
          <ThemeIcon size={56} radius="xl" variant="light" color="blue">
            <IconMailCheck size={30} />
          </ThemeIcon>
          <Title order={2} size="h3">
            {t('unsubscribe.resubscribed_title')}
          </Title>
          <Text size="sm" data-testid="unsubscribe-resubscribed">
            {t('unsubscribe.resubscribed', { brand: state.page.brandName })}
          </Text>
          <Button
            variant="subtle"
            loading={busy}
            onClick={() => act(unsubscribeFromPage, 'unsubscribed')}
            data-testid="unsubscribe-again"
          >
            {t('unsubscribe.again')}
          </Button>
        </>
      )}
      {(state.kind === 'invalid' || state.kind === 'failed') && (
        <>
          <ThemeIcon size={56} radius="xl" variant="light" color="red">
            <IconLinkOff size={30} />
          </ThemeIcon>
          <Title order={2} size="h3">
            {t('unsubscribe.error_title')}
          </Title>
          <Text size="sm" data-testid="unsubscribe-error">
            {state.kind === 'invalid' ? t('errors.unsubscribe_link_invalid') : state.message}
          </Text>
        </>
      )}
    </Stack>
  );
}

/** The page speaks for the brand the guest heard from: its logo and name, not the product's. */
function BrandHeader({ page }: { page: TUnsubscribePage }) {
  return (
    <Stack gap={6} align="center" data-testid="unsubscribe-brand-header">
      {page.brandLogoUrl && <Image src={page.brandLogoUrl} alt={page.brandName} h={56} w="auto" fit="contain" />}
      <Text size="lg" fw={700} data-testid="unsubscribe-brand">
        {page.brandName}
      </Text>
    </Stack>
  );
}
