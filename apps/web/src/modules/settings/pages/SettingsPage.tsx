import { Group, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../shell/hooks/useProfile';
import { PageHeader } from '../../ui/components/PageHeader';
import { LeaveGuardScope } from '../../ui/hooks/useLeaveGuard';
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
    // Clear of the sticky contents above when a link scrolls to it.
    <Paper withBorder radius="md" p="lg" id={id} data-testid={`settings-${id}`} style={{ scrollMarginTop: 72 }}>
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

/**
 * The page's sections as links, kept in view while the page scrolls (the settings of a brand run to
 * seven sections, some 5,000 px at 1366 px wide): the one being read is marked.
 */
function SectionLinks({ sections }: { sections: { id: string; title: string }[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const [current, setCurrent] = useState<string | null>(hash.slice(1) || null);
  const ids = sections.map((s) => s.id).join(' ');
  useEffect(() => {
    const list = ids.split(' ');
    // At the top, the first; at the bottom, the last; else the last section whose top has risen into
    // the upper third of the window.
    const mark = () => {
      const { scrollY, innerHeight } = window;
      if (scrollY <= 0) return setCurrent(list[0] ?? null);
      if (scrollY + innerHeight >= document.documentElement.scrollHeight - 2) return setCurrent(list.at(-1) ?? null);
      let seen = list[0] ?? null;
      for (const id of list) {
        const top = document.getElementById(id)?.getBoundingClientRect().top;
        if (top !== undefined && top <= innerHeight / 3) seen = id;
      }
      setCurrent(seen);
    };
    mark();
    window.addEventListener('scroll', mark, { passive: true });
    window.addEventListener('resize', mark);
    // Sections grow as their data arrives: marked again then, not only when the page scrolls.
    const grows = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(mark);
    grows?.observe(document.body);
    return () => {
      window.removeEventListener('scroll', mark);
      window.removeEventListener('resize', mark);
      grows?.disconnect();
    };
  }, [ids]);
  if (sections.length < 2) return null;
  return (
    <Paper
      component="nav"
      aria-label={t('settings.sections')}
      data-testid="settings-sections"
      withBorder
      shadow="xs"
      radius="md"
      px={4}
      py={4}
      mb="lg"
      pos="sticky"
      top={0}
      style={{ zIndex: 2 }}
    >
      <Group gap={0} wrap="wrap">
        {sections.map(({ id, title }) => (
          <NavLink
            key={id}
            href={`#${id}`}
            label={title}
            active={current === id}
            aria-current={current === id ? 'location' : undefined}
            w="auto"
            px={8}
            py={6}
            styles={{ label: { whiteSpace: 'nowrap', fontSize: 'var(--mantine-font-size-xs)' } }}
            onClick={(event) => {
              event.preventDefault();
              setCurrent(id);
              // The address names the section (a link to share), and the page scrolls to it.
              void navigate({ hash: id }, { replace: true });
              document.getElementById(id)?.scrollIntoView({ block: 'start' });
            }}
          />
        ))}
      </Group>
    </Paper>
  );
}

/**
 * Spec section 2, "Settings": the host's information, the password, and the parts still to come.
 * Leaving with any section's changes not saved asks first (one guard for all of them).
 */
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
  const brandSending = can['settings.manage_campaign_email'] && me.meta.level === 'brand';
  const shown = {
    host: true,
    password: can['settings.change_password'],
    booking: can['settings.manage_booking_system'],
    'campaign-email': can['settings.manage_campaign_email'],
    // The brand's own (issue 25): a brand admin's, as the server enforces.
    protection: brandSending,
    'relay-webhooks': brandSending,
    domain: can['settings.manage_domain_authentication'] || can['settings.manage_campaign_email'],
  };
  const titles = {
    host: t(`settings.host.title.${me.meta.level}`),
    password: t('settings.password.title'),
    booking: t('booking_sync.settings.title'),
    'campaign-email': t('settings.campaign_email.title'),
    protection: t('sending.protection.title'),
    'relay-webhooks': t('sending.relay.title'),
    domain: t('settings.domain.title'),
  };
  const sections = (Object.keys(shown) as (keyof typeof shown)[])
    .filter((id) => shown[id])
    .map((id) => ({ id, title: titles[id] }));
  return (
    <LeaveGuardScope>
      <PageHeader title={t('nav.settings')} />
      <SectionLinks sections={sections} />
      <Stack gap="lg">
        <Section
          id="host"
          title={titles.host}
          description={can['settings.update_host_info'] ? undefined : t('settings.host.read_only')}
        >
          <HostInfoSection editable={can['settings.update_host_info']} />
        </Section>
        {shown.password && (
          <Section id="password" title={titles.password} description={t('settings.password.description')}>
            <ChangePasswordSection />
          </Section>
        )}
        {shown.booking && (
          <Section id="booking" title={titles.booking} description={t('booking_sync.settings.description')}>
            <BookingSystemSection />
          </Section>
        )}
        {shown['campaign-email'] && (
          <Section id="campaign-email" title={titles['campaign-email']} description={t('sending.settings.description')}>
            <CampaignEmailSettingsForm />
          </Section>
        )}
        {shown.protection && (
          <Section id="protection" title={titles.protection} description={t('sending.protection.description')}>
            <ProtectionSettingsForm />
          </Section>
        )}
        {shown['relay-webhooks'] && (
          <Section id="relay-webhooks" title={titles['relay-webhooks']} description={t('sending.relay.description')}>
            <RelayWebhooksSection />
          </Section>
        )}
        {shown.domain && (
          <Section id="domain" title={titles.domain} description={t('sending.domains.description')}>
            <DomainAuthentication />
          </Section>
        )}
      </Stack>
    </LeaveGuardScope>
  );
}
