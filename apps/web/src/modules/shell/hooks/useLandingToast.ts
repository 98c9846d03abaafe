import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { showSnackbar } from '../../ui/components/Snackbar';

const FLAGS = {
  loginSuccess: 'shell.toast.logged_in',
  switchedRoleSuccess: 'shell.toast.switched_role',
} as const;

/** The toast that greets a user after sign-in or a role switch; the query flag is then dropped. */
export function useLandingToast(): void {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    const flags = (Object.keys(FLAGS) as (keyof typeof FLAGS)[]).filter((flag) => params.get(flag) === 'true');
    if (flags.length === 0) return;
    for (const flag of flags) showSnackbar({ status: 'success', message: t(FLAGS[flag]) });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const flag of Object.keys(FLAGS)) next.delete(flag);
        return next;
      },
      { replace: true },
    );
  }, [params, setParams, t]);
}
