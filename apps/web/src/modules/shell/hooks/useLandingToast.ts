import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { showSnackbar } from '../../ui/components/Snackbar';

const FLAGS = {
  loginSuccess: 'shell.toast.logged_in',
  switchedRoleSuccess: 'shell.toast.switched_role',
} as const;

/**
 * The toast that greets a user after sign-in or a role switch; the query flag is then dropped, by a
 * navigation that must never cancel one the user has started (a sidebar link whose page is still
 * loading then led nowhere: the setup and automations browser tests, now and then):
 * - in a layout effect, so the drop starts in the commit that shows the page, before any press can
 *   reach it (a passive effect could run after a press on a loaded machine);
 * - once per landing (its history entry): the router's location is a transition, held while the
 *   page below suspends, so the flags can still be read after they were dropped, and the effect
 *   runs again whenever `t` changes (the language switched).
 */
export function useLandingToast(): void {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { key } = useLocation();
  const handled = useRef<string | null>(null);
  useLayoutEffect(() => {
    const flags = (Object.keys(FLAGS) as (keyof typeof FLAGS)[]).filter((flag) => params.get(flag) === 'true');
    if (flags.length === 0 || handled.current === key) return;
    handled.current = key;
    for (const flag of flags) showSnackbar({ status: 'success', message: t(FLAGS[flag]) });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const flag of Object.keys(FLAGS)) next.delete(flag);
        return next;
      },
      { replace: true },
    );
  }, [params, setParams, t, key]);
}
