import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A password input that toggles between hidden and visible, with a translated toggle label. */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput {...props} visibilityToggleButtonProps={{ 'aria-label': t('ui.password.toggle_visibility') }} />
  );
}
