import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';

/**
 * A segment's audience and when it was counted ("1,234 / counted 3 May 2026, 3:04 PM"), in
 * `timeZone` when the page names one.
 */
export function AudienceText({
  audience,
  countedAt,
  timeZone,
}: {
  audience: number | null;
  countedAt: string | null;
  timeZone?: string;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  if (audience === null) {
    return (
      <Text size="sm" c="dimmed">
        {t('segmentation.list.not_counted')}
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} data-testid="segment-audience">
        {audience.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US')}
      </Text>
      {countedAt && (
        <Text size="xs" c="dimmed">
          {t('segmentation.list.counted_at', { date: formatDate(countedAt, language, { withTime: true, timeZone }) })}
        </Text>
      )}
    </Stack>
  );
}
