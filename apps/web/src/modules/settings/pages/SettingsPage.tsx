import { Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../shell/hooks/useProfile';
import { PageHeader } from '../../ui/components/PageHeader';
import { BookingSystemSection } from '../components/BookingSystemSection';
import { ChangePasswordSection } from '../components/ChangePasswordSection';
import { HostInfoSection } from '../components/HostInfoSection';
import { CampaignEmailSettingsForm } from '../../sending/components/CampaignEmailSettingsForm';
import { DomainAuthentication } from '../../sending/components/DomainAuthentication';
import { ProtectionSettingsForm } from '../../sending/components/ProtectionSettingsForm';
import { RelayWebhooksSection } from '../../sending/components/RelayWebhooksSection';

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="lg" id={id} data-testid={`settings-${id}`}>
      <Title order={2} size="h4" mb={description ? 4 : 'md'}>
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed" mb="md">
          {description}
        </Text>
      )}
      {children}
    </Paper>
  );
}

/** Spec section 2, "Settings": the host's information, the password, and the parts still to come. */
export function SettingsPage() {
  const { t } = useTranslation();
  const me = useProfile();
  const can = me.entitlements;
  const { hash } = useLocation();
  // Links from Setup and from the sender warning land on a section (#campaign-email, #domain).
  useEffect(() => {
    if (!hash) return;
    const timer = setTimeout(() => document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' }), 50);
    return () => clearTimeout(timer);
  }, [hash]);
  return (
    <>
      <PageHeader title={t('nav.settings')} />
      <Stack gap="lg">
        <Section
          id="host"
          title={t(`settings.host.title.${me.meta.level}`)}
          description={can['settings.update_host_info'] ? undefined : t('settings.host.read_only')}
        >
          <HostInfoSection editable={can['settings.update_host_info']} />
        </Section>
        {can['settings.change_password'] && (
          <Section id="password" title={t('settings.password.title')} description={t('settings.password.description')}>
            <ChangePasswordSection />
          </Section>
        )}
        {can['settings.manage_booking_system'] && (
          <Section
            id="booking"
            title={t('booking_sync.settings.title')}
            description={t('booking_sync.settings.description')}
          >
            <BookingSystemSection />
          </Section>
        )}
        {can['settings.manage_campaign_email'] && (
          <Section
            id="campaign-email"
            title={t('settings.campaign_email.title')}
            description={t('sending.settings.description')}
          >
            <CampaignEmailSettingsForm />
          </Section>
        )}
        {/* The brand's own (issue 25): a brand admin's, as the server enforces. */}
        {can['settings.manage_campaign_email'] && me.meta.level === 'brand' && (
          <Section
            id="protection"
            title={t('sending.protection.title')}
            description={t('sending.protection.description')}
          >
            <ProtectionSettingsForm />
          </Section>
        )}
        {can['settings.manage_campaign_email'] && me.meta.level === 'brand' && (
          <Section id="relay-webhooks" title={t('sending.relay.title')} description={t('sending.relay.description')}>
            <RelayWebhooksSection />
          </Section>
        )}
        {(can['settings.manage_domain_authentication'] || can['settings.manage_campaign_email']) && (
          <Section id="domain" title={t('settings.domain.title')} description={t('sending.domains.description')}>
            <DomainAuthentication />
          </Section>
        )}
      </Stack>
    </>
  );
}
