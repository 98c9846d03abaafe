import { useTranslation } from 'react-i18next';
import { applyLanguage, currentLanguage } from '../../../i18n/i18n';
import type { TLanguage } from '../../../lib/session/storage';
import { TwoOptionToggle } from './TwoOptionToggle';

/** 日本語 / English switch for the public pages; the choice is stored like the shell's. */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const value = i18n.language === 'en' ? 'en' : currentLanguage();
  return (
    <TwoOptionToggle<TLanguage>
      ariaLabel={t('language.label')}
      value={value}
      onChange={(next) => void applyLanguage(next)}
      options={[
        { value: 'ja', label: t('language.japanese') },
        { value: 'en', label: t('language.english') },
      ]}
    />
  );
}
