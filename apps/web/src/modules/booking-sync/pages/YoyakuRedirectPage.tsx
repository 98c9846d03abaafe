import { Anchor, Progress, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

/** Seconds before returning to the console; the page shows the time passing, never the number (spec sections 2 and 9). */
const REDIRECT_SECONDS = 5;

/** /yoyaku-verification/redirect: a countdown back to the settings page. */
export function YoyakuRedirectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [elapsed, setElapsed] = useState(0);

  useEffect(() => {
    const tick = setInterval(() => setElapsed((e) => e + 1), 1000);
    const done = setTimeout(() => navigate('/settings', { replace: true }), REDIRECT_SECONDS * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(done);
    };
  }, [navigate]);

  return (
    <Stack gap="md" ta="center" data-testid="yoyaku-redirect">
      <Title order={2} size="h3">
        {t('booking_sync.redirect.title')}
      </Title>
      <Text size="sm">{t('booking_sync.redirect.message')}</Text>
      <Progress
        value={Math.min(100, (elapsed / REDIRECT_SECONDS) * 100)}
        aria-label={t('booking_sync.redirect.progress')}
        transitionDuration={900}
      />
      <Anchor component={Link} to="/settings" replace size="sm">
        {t('booking_sync.redirect.now')}
      </Anchor>
    </Stack>
  );
}
