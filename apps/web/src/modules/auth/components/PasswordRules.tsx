import { List, ThemeIcon } from '@mantine/core';
import { hasDigit, hasLetter, PASSWORD_MIN_LENGTH } from '@yado/contracts/validation';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The password rules of section 5, each ticked as the typed password meets it. */
export function PasswordRules({ password }: { password: string }) {
  const { t } = useTranslation();
  const rules = [
    { key: 'min_length', met: password.length >= PASSWORD_MIN_LENGTH },
    { key: 'letter', met: hasLetter(password) },
    { key: 'digit', met: hasDigit(password) },
  ];
  return (
    <List size="xs" spacing={2} aria-label={t('auth.password_rules.title')}>
      {rules.map((rule) => (
        <List.Item
          key={rule.key}
          c={rule.met ? 'teal' : 'dimmed'}
          data-met={rule.met}
          icon={
            <ThemeIcon size={16} radius="xl" variant={rule.met ? 'filled' : 'light'} color={rule.met ? 'teal' : 'gray'}>
              {rule.met ? <IconCheck size={11} /> : <IconPoint size={11} />}
            </ThemeIcon>
          }
        >
          {t(`auth.password_rules.${rule.key}`, { min: PASSWORD_MIN_LENGTH })}
        </List.Item>
      ))}
    </List>
  );
}
