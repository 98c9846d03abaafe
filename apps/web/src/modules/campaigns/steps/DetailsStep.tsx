import { Alert, Anchor, Input, Stack, Text, TextInput } from '@mantine/core';
import { CAMPAIGN_NAME_MAX, CAMPAIGN_PRE_HEADER_MAX, CAMPAIGN_SUBJECT_MAX } from '@yado/contracts/campaigns';
import type { TCampaignEmailSettings } from '@yado/contracts/sending';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TProblem } from '../campaignDraft';
import type { TStepProps } from './stepProps';

export interface TDetailsStepProps extends TStepProps {
  /** The acting host's campaign email settings (null for the platform, which sends no campaign). */
  settings: TCampaignEmailSettings | null;
  canManageSettings: boolean;
}

/** Name, subject, pre-header; the sender comes from the campaign email settings, not typed here. */
export function DetailsStep({ draft, change, problems, readOnly, settings, canManageSettings }: TDetailsStepProps) {
  const { t } = useTranslation();
  const text = (problem: TProblem | undefined) => (problem ? t(problem.key, problem.values) : undefined);
  const sender = settings?.effective.senderEmail ?? null;
  const senderName = settings?.effective.senderName ?? null;
  const ready = Boolean(settings?.canSend && sender);
  return (
    <Stack gap="md" maw={640}>
      <TextInput
        label={t('campaign.details.name')}
        name="name"
        required
        maxLength={CAMPAIGN_NAME_MAX}
        value={draft.name}
        readOnly={readOnly}
        error={text(problems.name)}
        onChange={(e) => change({ name: e.currentTarget.value })}
      />
      <TextInput
        label={t('campaign.details.subject')}
        name="subject"
        required
        maxLength={CAMPAIGN_SUBJECT_MAX}
        value={draft.subject}
        readOnly={readOnly}
        error={text(problems.subject)}
        onChange={(e) => change({ subject: e.currentTarget.value })}
      />
      <TextInput
        label={t('campaign.details.preheader')}
        description={t('campaign.details.preheader_hint')}
        name="preHeader"
        maxLength={CAMPAIGN_PRE_HEADER_MAX}
        value={draft.preHeader}
        readOnly={readOnly}
        error={text(problems.preHeader)}
        onChange={(e) => change({ preHeader: e.currentTarget.value })}
      />
      <Input.Wrapper label={t('campaign.details.sender')} description={t('campaign.details.sender_from_settings')}>
        {ready ? (
          <Text mt={4} data-testid="campaign-sender">
            {senderName ? `${senderName} <${sender}>` : sender}
          </Text>
        ) : (
          <Alert
            mt={6}
            color="orange"
            icon={<IconAlertTriangle size={18} />}
            data-testid="campaign-settings-missing"
            role="alert"
          >
            <Stack gap={4}>
              <Text size="sm">{t('campaign.details.settings_missing')}</Text>
              {canManageSettings && (
                <Anchor component={Link} to="/settings#campaign-email" size="sm">
                  {t('campaign.details.set_settings')}
                </Anchor>
              )}
            </Stack>
          </Alert>
        )}
      </Input.Wrapper>
    </Stack>
  );
}
