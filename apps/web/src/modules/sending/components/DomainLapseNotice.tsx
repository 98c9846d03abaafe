import { Anchor, Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { loadAreaTexts } from '../../../i18n/i18n';
import { domainsQuery } from '../api/sendingCalls';
import { LapsedDomainsBanner } from './DomainAuthentication';

/**
 * Above every page of a brand admin: a domain that fell out of verification (the daily re-check
 * found its records changed) stops the brand's campaigns from it, so it is said everywhere.
 */
export function DomainLapseNotice() {
  const { t } = useTranslation();
  const [texts, setTexts] = useState(false);
  const domains = useQuery({ ...domainsQuery, staleTime: 5 * 60_000 });
  const lapsed = domains.data?.domains.some((d) => d.lapsedAt && d.state !== 'verified') ?? false;
  useEffect(() => {
    if (lapsed) void loadAreaTexts('sending').then(() => setTexts(true));
  }, [lapsed]);
  if (!lapsed || !texts || !domains.data) return null;
  return (
    <Box mb="md" data-testid="shell-domain-lapse">
      <LapsedDomainsBanner
        domains={domains.data.domains}
        action={
          <Anchor component={Link} to="/settings#domain" size="sm">
            {t('sending.settings.go_to_domains')}
          </Anchor>
        }
      />
    </Box>
  );
}
