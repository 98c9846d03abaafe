import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/ConfirmDialog';

type TDirty = () => boolean;
/** Saves the change not saved yet before leaving; true when it is saved (then the page is left without asking). */
type TSaveFirst = () => Promise<boolean>;

/** Set by a LeaveGuardScope: adds a form's `dirty` to the page's one guard, and returns its removal. */
const LeaveGuardScopeContext = createContext<((dirty: TDirty) => () => void) | null>(null);

/**
 * Leaving with changes not yet saved asks first: a link in the console (the page's back link, the
 * sidebar, the browser's back button) opens a dialog to stay or leave, and closing or reloading the
 * tab the browser's own. `dirty` is read when the user leaves, so a save just finished counts.
 * Inside a LeaveGuardScope, the scope's guard asks for it. With `saveFirst` (an autosaving editor),
 * a link saves the pending change first and leaves once it is saved; only a change that could not
 * be saved asks, so "they are lost" is true when it is said.
 */
export function useLeaveGuard(dirty: TDirty, options: { saveFirst?: TSaveFirst } = {}): ReactNode {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const saveFirstRef = useRef(options.saveFirst);
  saveFirstRef.current = options.saveFirst;
  const scope = useContext(LeaveGuardScopeContext);
  useEffect(() => scope?.(() => dirtyRef.current()), [scope]);
  return scope ? null : <LeaveGuard dirty={dirtyRef} saveFirst={options.saveFirst ? saveFirstRef : undefined} />;
}

/**
 * One guard for the forms of a page that has several (the settings page): a router asks only one
 * blocker (the last one registered), so a guard per form would leave all but one unguarded.
 */
export function LeaveGuardScope({ children }: { children: ReactNode }) {
  const forms = useRef(new Set<TDirty>());
  const register = useCallback((dirty: TDirty) => {
    forms.current.add(dirty);
    return () => {
      forms.current.delete(dirty);
    };
  }, []);
  const anyDirty = useRef<TDirty>(() => [...forms.current].some((dirty) => dirty()));
  return (
    <LeaveGuardScopeContext.Provider value={register}>
      {children}
      <LeaveGuard dirty={anyDirty} />
    </LeaveGuardScopeContext.Provider>
  );
}

function LeaveGuard({ dirty, saveFirst }: { dirty: RefObject<TDirty>; saveFirst?: RefObject<TSaveFirst | undefined> }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty.current() &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  // With saveFirst: the dialog only once the save failed.
  const [unsaved, setUnsaved] = useState(false);
  const blocked = blocker.state === 'blocked';
  useEffect(() => {
    const save = saveFirst?.current;
    if (!blocked || !save) {
      setUnsaved(false);
      return;
    }
    let live = true;
    void save().then((saved) => {
      if (!live) return;
      if (saved) blocker.proceed?.();
      else setUnsaved(true);
    });
    return () => {
      live = false;
    };
    // The blocker object changes each render; the attempt is per block.
  }, [blocked]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirty.current()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <ConfirmDialog
      opened={blocked && (!saveFirst || unsaved)}
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
