import { Box, Text, UnstyledButton } from '@mantine/core';
import type { TMe } from '@yado/contracts/auth';
import { IconDots, IconLanguage, IconLogout, IconSwitchHorizontal, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLanguage } from '../../../lib/session/storage';
import { EntitlementMenu, type TDropdownOption } from '../../ui/components/EntitlementMenu';
import classes from './UserMenu.module.css';

export type TUserMenuAction = 'my_profile' | 'switch_role' | 'switch_to_english' | 'switch_to_japanese' | 'sign_out';

export interface TUserMenuProps {
  me: TMe;
  language: TLanguage;
  collapsed: boolean;
  onAction: (action: TUserMenuAction) => void;
}

/** The sidebar footer: who is signed in, and the menu of spec section 2 ("Footer"). */
/** Japanese names show the family name's first character (田), others the initials (EC). */
export function initialsOf(firstName: string, lastName: string, email: string): string {
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(lastName + firstName))
    return lastName.charAt(0) || firstName.charAt(0);
  return (firstName.charAt(0) + lastName.charAt(0)).toUpperCase() || email.charAt(0).toUpperCase();
}

export function UserMenu({ me, language, collapsed, onAction }: TUserMenuProps) {
  const { t } = useTranslation();
  const options: TDropdownOption<TUserMenuAction>[] = [
    { id: 'my_profile', label: t('shell.menu.my_profile'), icon: <IconUser size={16} />, data: 'my_profile' },
    {
      id: 'switch_role',
      label: t('shell.menu.switch_role'),
      icon: <IconSwitchHorizontal size={16} />,
      data: 'switch_role',
      entitlement: 'shell.read_switch_role',
    },
    {
      id: 'switch_to_english',
      label: t('shell.menu.switch_to_english'),
      icon: <IconLanguage size={16} />,
      data: 'switch_to_english',
      hidden: language === 'en',
    },
    {
      id: 'switch_to_japanese',
      label: t('shell.menu.switch_to_japanese'),
      icon: <IconLanguage size={16} />,
      data: 'switch_to_japanese',
      hidden: language === 'ja',
    },
    { id: 'sign_out', label: t('shell.menu.sign_out'), icon: <IconLogout size={16} />, data: 'sign_out', color: 'red' },
  ];

  return (
    <EntitlementMenu
      options={options}
      entitlements={me.entitlements}
      position="top-start"
      width={220}
      onSelect={(option) => option.data && onAction(option.data)}
      target={
        <UnstyledButton className={classes.button} aria-label={t('shell.menu.open')} data-testid="user-menu">
          <UserAvatar imageUrl={me.imageUrl} initials={initialsOf(me.firstName, me.lastName, me.email)} />
          {!collapsed && (
            <Box className={classes.text}>
              <Text size="sm" fw={600} truncate="end">
                {me.fullName}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {me.email}
              </Text>
            </Box>
          )}
          {!collapsed && <IconDots size={16} aria-hidden />}
        </UnstyledButton>
      }
    />
  );
}

/**
 * The user's picture, or the initials when there is none or it fails to load. A plain element
 * rather than Mantine's Avatar: the shell is on every page's first download (docs/benchmarks.md, "bundle").
 */
function UserAvatar({ imageUrl, initials }: { imageUrl: string | null | undefined; initials: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <span className={classes.avatar} data-testid="user-avatar">
      {imageUrl && !failed ? (
        <img src={imageUrl} alt="" className={classes.avatarImage} onError={() => setFailed(true)} />
      ) : (
        initials
      )}
    </span>
  );
}
