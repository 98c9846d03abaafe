import { Center, Loader } from '@mantine/core';
import * as authApi from '@yado/contracts/auth';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { applyLanguage } from '../../../i18n/i18n';
import { request } from '../../../lib/http/request';
import { startRefreshTimer } from '../../../lib/session/refresh';
import { clearSession, type TLanguage } from '../../../lib/session/storage';
import { signOut } from '../../auth/api/authCalls';
import { useLandingToast } from '../hooks/useLandingToast';
import { useProfile } from '../hooks/useProfile';
import { Sidebar } from './Sidebar';
import { UserMenu, type TUserMenuAction } from './UserMenu';
import classes from './Shell.module.css';

// The dialogs load only when opened, keeping them out of the shell's first download.
const MyProfileDialog = lazy(() =>
  import('../../profile/components/MyProfileDialog').then((m) => ({ default: m.MyProfileDialog })),
);
const SwitchRoleDialog = lazy(() =>
  import('../../switch-role/components/SwitchRoleDialog').then((m) => ({ default: m.SwitchRoleDialog })),
);

// Only brand admins load it: a banner when one of the brand's domains fell out of verification.
const DomainLapseNotice = lazy(() =>
  import('../../sending/components/DomainLapseNotice').then((m) => ({ default: m.DomainLapseNotice })),
);

// Only brand admins load it: campaigns that paused themselves or near their bounce and complaint limits.
const ProtectionNotice = lazy(() =>
  import('../../campaigns/components/ProtectionNotice').then((m) => ({ default: m.ProtectionNotice })),
);

type TDialog = 'my_profile' | 'switch_role' | null;

export function Shell() {
  const me = useProfile();
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(false);
  const [dialog, setDialog] = useState<TDialog>(null);
  // Once opened, a dialog stays mounted so that closing can animate.
  const [mounted, setMounted] = useState<Set<Exclude<TDialog, null>>>(new Set());
  const language: TLanguage = i18n.language === 'en' ? 'en' : 'ja';

  useLandingToast();

  useEffect(
    () =>
      // The sign-in page empties the cache once these pages are gone (see LoginPage).
      startRefreshTimer(() => {
        clearSession();
        navigate('/login', { replace: true });
      }),
    [navigate],
  );

  const open = (which: Exclude<TDialog, null>) => {
    setMounted((m) => new Set(m).add(which));
    setDialog(which);
  };

  const switchLanguage = async (next: TLanguage) => {
    await applyLanguage(next);
    try {
      await request(authApi.updateLanguage, { body: { language: next } });
    } catch (error) {
      console.warn('Could not store the language on the account', error);
    }
  };

  const onAction = async (action: TUserMenuAction) => {
    switch (action) {
      case 'my_profile':
      case 'switch_role':
        open(action);
        return;
      case 'switch_to_english':
        return switchLanguage('en');
      case 'switch_to_japanese':
        return switchLanguage('ja');
      case 'sign_out':
        await signOut();
        // The sign-in page empties the cache once these pages are gone (see LoginPage).
        navigate('/login', { replace: true });
    }
  };

  return (
    <div className={classes.shell}>
      <Sidebar
        me={me}
        collapsed={collapsed}
        onCollapsedChange={setCollapsed}
        footer={<UserMenu me={me} language={language} collapsed={collapsed} onAction={(a) => void onAction(a)} />}
      />
      <main className={classes.main}>
        <Suspense
          fallback={
            <Center py={80}>
              <Loader />
            </Center>
          }
        >
          {me.meta.level === 'brand' && me.entitlements['settings.manage_domain_authentication'] && (
            <Suspense fallback={null}>
              <DomainLapseNotice />
            </Suspense>
          )}
          {me.meta.level === 'brand' && me.entitlements['settings.manage_campaign_email'] && (
            <Suspense fallback={null}>
              <ProtectionNotice />
            </Suspense>
          )}
          <Outlet />
        </Suspense>
      </main>
      <Suspense fallback={null}>
        {mounted.has('my_profile') && (
          <MyProfileDialog me={me} opened={dialog === 'my_profile'} onClose={() => setDialog(null)} />
        )}
        {mounted.has('switch_role') && (
          <SwitchRoleDialog opened={dialog === 'switch_role'} onClose={() => setDialog(null)} />
        )}
      </Suspense>
    </div>
  );
}
