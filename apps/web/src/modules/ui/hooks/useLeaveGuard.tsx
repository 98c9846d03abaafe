import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/ConfirmDialog';

/**
 * Leaving with changes not yet saved asks first: a link in the console (the page's back link, the
 * sidebar, the browser's back button) opens a dialog to stay or leave, and closing or reloading the
 * tab the browser's own. `dirty` is read when the user leaves, so a save just finished counts.
 */
export function useLeaveGuard(dirty: () => boolean): ReactNode {
  const { t } = useTranslation();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current() &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirtyRef.current()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  return (
    <ConfirmDialog
      opened={blocker.state === 'blocked'}
      title={t('ui.leave.title')}
      message={<span data-testid="leave-guard">{t('ui.leave.message')}</span>}
      confirmLabel={t('ui.leave.leave')}
      cancelLabel={t('ui.leave.stay')}
      danger
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
}
