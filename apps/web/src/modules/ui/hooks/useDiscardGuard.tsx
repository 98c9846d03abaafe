import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../components/ConfirmDialog';

/**
 * A dialog holding changes not saved asks before it closes without them (Escape, its close button,
 * a click outside, Cancel): `requestClose` is its `onClose`, and `dialog` is rendered beside it.
 * While the question is open, the dialog below must not take Escape too (`asking`): Mantine
 * closes every open modal on one Escape.
 */
export function useDiscardGuard(
  dirty: () => boolean,
  close: () => void,
): { requestClose: () => void; asking: boolean; dialog: ReactNode } {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const requestClose = () => (dirty() ? setAsking(true) : close());
  const dialog = (
    <ConfirmDialog
      opened={asking}
      title={t('ui.discard.title')}
      message={<span data-testid="discard-guard">{t('ui.discard.message')}</span>}
      confirmLabel={t('ui.discard.discard')}
      cancelLabel={t('ui.discard.keep')}
      danger
      onConfirm={() => {
        setAsking(false);
        close();
      }}
      onClose={() => setAsking(false)}
    />
  );
  return { requestClose, asking, dialog };
}
