import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage, loadAreaTexts } from '../../../i18n/i18n';
import { protectionAlertsQuery } from '../../sending/api/deliverabilitySettingsCalls';
import { warningText } from '../pausedText';

/**
 * Above every page of a brand admin (issue 25): the brand's sending campaigns that paused
 * themselves or are near their bounce or complaint limit, each with its rate and threshold and a
 * link to its statistics (where it is resumed or cancelled), and those that finished within a day
 * with such a rate (their list needs a look before the next campaign).
 */
export function ProtectionNotice() {
  const { t } = useTranslation();
  const [texts, setTexts] = useState(false);
  const alerts = useQuery({ ...protectionAlertsQuery, staleTime: 60_000, refetchInterval: 60_000 });
  const any = (alerts.data?.length ?? 0) > 0;
  useEffect(() => {
    if (any) void loadAreaTexts('campaign').then(() => setTexts(true));
  }, [any]);
  if (!any || !texts || !alerts.data) return null;
  const language = currentLanguage();
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} mb="md" data-testid="shell-protection">
      <Text size="sm" fw={600} mb={4}>
        {t('campaign.statistics.protection_banner.title')}
      </Text>
      <Stack gap={2}>
        {alerts.data.map((alert) => (
          <Text size="sm" key={alert.campaignId} data-testid="shell-protection-campaign" data-paused={alert.paused}>
            {alert.paused
              ? t('campaign.statistics.protection_banner.paused', { name: alert.name })
              : t('campaign.statistics.protection_banner.warning', {
                  name: alert.name,
                  text: warningText(alert, t, language, alert.finished),
                })}{' '}
            <Anchor component={Link} to={`/campaign/${alert.campaignId}`} size="sm">
              {t('campaign.statistics.protection_banner.open')}
            </Anchor>
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
