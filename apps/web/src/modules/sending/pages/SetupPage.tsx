import {
  Alert,
  Anchor,
  Badge,
  Group,
  List,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck, IconCircleDashed, IconInfoCircle, IconLock } from '@tabler/icons-react';
import type { TMe } from '@yado/contracts/auth';
import { entitlementsFor, type TEntitlement } from '@yado/contracts/entitlements';
import { ROLES_BY_LEVEL, type THostLevel } from '@yado/contracts/tenancy';
import type { TSetupOverview } from '@yado/contracts/sending';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { PageHeader } from '../../ui/components/PageHeader';
import { setupQuery } from '../api/sendingCalls';
import { LapsedDomainsBanner, STATE_COLOR } from '../components/DomainAuthentication';

type TItem = TSetupOverview['checklist'][number]['item'];

/**
 * Where each checklist item is done, and the entitlement (at a brand, for domains) it takes there:
 * the server's rule. A user without it is told whom to ask, the roles that have it at that level
 * (entitlementsFor, the table the server grants from): a link the user could only follow to a page
 * that refuses them, or shows them nothing to do, would be a dead end.
 */
const ITEMS: Record<TItem, { link: string; entitlement: TEntitlement; level?: THostLevel }> = {
  sender: { link: '/settings#campaign-email', entitlement: 'settings.manage_campaign_email' },
  verified_domain: { link: '/settings#domain', entitlement: 'settings.manage_domain_authentication', level: 'brand' },
  segment: { link: '/segmentation', entitlement: 'segmentation.create' },
  template: { link: '/templates', entitlement: 'templates.create' },
};

const canDo = (me: TMe, item: TItem) =>
  me.entitlements[ITEMS[item].entitlement] && (!ITEMS[item].level || ITEMS[item].level === me.meta.level);

/** The role names (catalogue keys) that may do `item`, at its level or else the user's. */
function whoCan(me: TMe, item: TItem): string[] {
  const level = ITEMS[item].level ?? me.meta.level;
  return ROLES_BY_LEVEL[level]
    .filter((role) => entitlementsFor(level, role, false)[ITEMS[item].entitlement])
    .map((role) => `roles.${level}.${role}`);
}

function Card({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" p="lg" data-testid={testId}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** The Setup area (specification section 2, "Shell"): the sending set-up at a glance. */
export function SetupPage() {
  const { t } = useTranslation();
  const setup = useQuery(setupQuery);
  return (
    <>
      <PageHeader title={t('nav.setup')} description={t('sending.setup.description')} />
      {setup.isPending && <Loader size="sm" />}
      {setup.isError && (
        <Alert color="gray" icon={<IconInfoCircle size={18} />}>
          {errorText(setup.error, t)}
        </Alert>
      )}
      {setup.data && <Overview data={setup.data} />}
    </>
  );
}

function Overview({ data }: { data: TSetupOverview }) {
  const { t } = useTranslation();
  const me = useProfile();
  const askText = (item: TItem) => {
    const [first, second] = whoCan(me, item).map((key) => t(key));
    return second ? t('sending.setup.ask_either', { first, second }) : t('sending.setup.ask_one', { role: first });
  };
  // The settings page shows the domains to those who set the sender too (read-only below the brand).
  const opensDomains =
    me.entitlements['settings.manage_domain_authentication'] || me.entitlements['settings.manage_campaign_email'];
  const done = data.checklist.filter((i) => i.status === 'done').length;
  const effective = data.settings?.effective;
  return (
    <Stack gap="lg">
      <LapsedDomainsBanner domains={data.domains} />
      <Card title={t('sending.setup.checklist_title', { done, total: data.checklist.length })} testId="setup-checklist">
        <List spacing="sm" listStyleType="none">
          {data.checklist.map((item) => (
            <List.Item
              key={item.item}
              data-testid={`checklist-${item.item}`}
              data-status={item.status}
              icon={
                <ThemeIcon
                  color={item.status === 'done' ? 'green' : 'gray'}
                  variant={item.status === 'done' ? 'filled' : 'light'}
                  radius="xl"
                  size={24}
                >
                  {item.status === 'done' ? (
                    <IconCheck size={14} />
                  ) : item.status === 'todo' ? (
                    <IconCircleDashed size={14} />
                  ) : (
                    <IconLock size={14} />
                  )}
                </ThemeIcon>
              }
            >
              <Group gap="xs">
                {canDo(me, item.item) ? (
                  <Anchor component={Link} to={ITEMS[item.item].link}>
                    {t(`sending.setup.items.${item.item}`)}
                  </Anchor>
                ) : (
                  <Text>{t(`sending.setup.items.${item.item}`)}</Text>
                )}
                <Badge variant="light" color={item.status === 'done' ? 'green' : 'gray'}>
                  {t(`sending.setup.status.${item.status}`)}
                </Badge>
              </Group>
              {item.status === 'unavailable' && (
                <Text size="xs" c="dimmed">
                  {t(`sending.setup.unavailable.${item.item}`)}
                </Text>
              )}
              {item.status === 'todo' && !canDo(me, item.item) && (
                <Text size="xs" c="dimmed" data-testid={`checklist-${item.item}-ask`}>
                  {askText(item.item)}
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card title={t('sending.setup.sender_title')} testId="setup-sender">
          {effective ? (
            <Stack gap={6}>
              <Text size="sm">
                {t('sending.settings.fields.sender_name')}: {effective.senderName ?? t('sending.setup.not_set')}
              </Text>
              <Text size="sm" data-testid="setup-sender-email">
                {t('sending.settings.fields.sender_email')}: {effective.senderEmail ?? t('sending.setup.not_set')}
              </Text>
              <Text size="sm">
                {t('sending.settings.fields.reply_to')}: {effective.replyTo ?? t('sending.setup.not_set')}
              </Text>
              {data.settings?.canSend ? (
                <Badge color="green" variant="light">
                  {t('sending.setup.can_send')}
                </Badge>
              ) : (
                <Stack gap={2}>
                  {data.settings?.problems.map((p) => (
                    <Text key={p} size="sm" c="orange">
                      {t(`errors.${p}`, { defaultValue: t('errors.general') })}
                    </Text>
                  ))}
                </Stack>
              )}
              {canDo(me, 'sender') && (
                <Anchor component={Link} to={ITEMS.sender.link} size="sm">
                  {t('sending.setup.edit_sender')}
                </Anchor>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {t('errors.sending_host_only')}
            </Text>
          )}
        </Card>
        <Card title={t('sending.setup.domains_title')} testId="setup-domains">
          <Stack gap={6}>
            {data.domains.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('sending.domains.none')}
              </Text>
            )}
            {data.domains.map((d) => (
              <Group key={d.id} gap="xs" data-testid={`setup-domain-${d.domain}`}>
                <Text size="sm">{d.displayName}</Text>
                <Badge color={STATE_COLOR[d.state]} variant="light">
                  {t(`sending.state.${d.state}`)}
                </Badge>
              </Group>
            ))}
            {opensDomains && (
              <Anchor component={Link} to={ITEMS.verified_domain.link} size="sm">
                {t('sending.setup.manage_domains')}
              </Anchor>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
