import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { BookingSystemSection } from '../components/BookingSystemSection';
import { ChangePasswordSection } from '../components/ChangePasswordSection';
import { HostInfoSection } from '../components/HostInfoSection';

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
    <Paper withBorder radius="md" p="lg" data-testid={`settings-${id}`}>
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
          <Section id="booking" title={t('booking_sync.settings.title')} description={t('booking_sync.settings.description')}>
            <BookingSystemSection />
          </Section>
        )}
        <Section id="campaign-email" title={t('settings.campaign_email.title')}>
          <EmptyState title={t('areas.not_available.title')} description={t('settings.campaign_email.not_available')} />
        </Section>
        <Section id="domain" title={t('settings.domain.title')}>
          <EmptyState title={t('areas.not_available.title')} description={t('settings.domain.not_available')} />
        </Section>
      </Stack>
    </>
  );
}
