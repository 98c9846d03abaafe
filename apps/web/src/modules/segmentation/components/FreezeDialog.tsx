import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useReducer, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { showSnackbar } from '../../ui/components/Snackbar';
import { freezeMembers } from '../api/segmentsCalls';
import { checkDraft, filterDraftReducer, marksFromError, newFilter, type TDraftAction } from '../filterDraft';
import { FilterEditor } from './FilterEditor';

/** "From existing customers": the customers a filter matches now join a static segment's list. */
export function FreezeDialog({
  segmentId,
  opened,
  onClose,
  onAdded,
}: {
  segmentId: string;
  opened: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const [filter, dispatchFilter] = useReducer(filterDraftReducer, undefined, newFilter);
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const check = checkDraft(filter);
  useEffect(() => {
    if (!opened) return;
    dispatchFilter({ type: 'replace', filter: newFilter() });
    setAttempted(false);
    setServerError(null);
  }, [opened]);
  const dispatch: Dispatch<TDraftAction> = (action) => {
    setServerError(null);
    dispatchFilter(action);
  };

  const freeze = async () => {
    setAttempted(true);
    if (!check.complete) return;
    setBusy(true);
    try {
      const { added } = await freezeMembers(segmentId, filter);
      showSnackbar({ status: 'success', message: t('segmentation.done.added', { count: added }) });
      onAdded();
      onClose();
    } catch (error) {
      if (marksFromError(error)) setServerError(error);
      else showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size={1100}
      title={t('segmentation.freeze.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md" data-testid="freeze-dialog">
        <Text size="sm">{t('segmentation.freeze.help')}</Text>
        {opened && (
          <FilterEditor
            filter={filter}
            dispatch={dispatch}
            check={check}
            serverError={serverError}
            attempted={attempted}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('segmentation.actions.cancel')}
          </Button>
          <Button loading={busy} onClick={() => void freeze()} data-testid="freeze-submit">
            {t('segmentation.freeze.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
