import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Stepper } from '@mantine/core';
import type { TCustomerImport, TEmailReception } from '@yado/contracts/customer-imports';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { pushSnackbar } from '../../ui/components/snackbarStore';
import { IMPORT_QUERY_KEY, cancelImport, confirmImport, importQuery } from '../api/importCalls';
import { FileSummary } from '../components/FileSummary';
import { ReceptionStep } from '../components/ReceptionStep';
import { ReviewStep } from '../components/ReviewStep';
import { UploadStep } from '../components/UploadStep';

const AT_RECEPTION: TCustomerImport['status'][] = ['queued', 'importing', 'completed', 'failed'];

/**
 * Spec section 2: the customer import in three steps (upload, review, email reception). The
 * import's id lives in the address (?id=), so a reload or a later visit finds it again.
 */
export function CustomerImportPage() {
  const { t } = useTranslation();
  const me = useProfile();
  if (!me.entitlements['customer.import']) {
    return (
      <>
        <PageHeader title={t('customer_import.title')} />
        <EmptyState readOnly title={t('errors.forbidden')} description={null} />
      </>
    );
  }
  return <ImportWizard />;
}

function ImportWizard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const current = useQuery({ ...importQuery(id ?? ''), enabled: Boolean(id) });
  const item = id ? current.data : undefined;
  const [wantsReception, setWantsReception] = useState(false);
  const [running, setRunning] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);

  const show = (next: TCustomerImport) => {
    queryClient.setQueryData(importQuery(next.id).queryKey, next);
    setParams({ id: next.id });
  };
  const restart = () => {
    setWantsReception(false);
    setParams({});
  };
  const run = async (reception: TEmailReception, segmentId?: string) => {
    if (!item) return;
    setRunning(true);
    try {
      show(await confirmImport(item.id, reception, segmentId));
    } catch (error) {
      pushSnackbar({ status: 'failed', text: errorText(error, t), durationMs: 5000 });
    } finally {
      setRunning(false);
    }
  };
  const cancel = async () => {
    if (!item) return;
    setCancelling(true);
    try {
      await cancelImport(item.id);
      await queryClient.invalidateQueries({ queryKey: IMPORT_QUERY_KEY });
      setConfirmCancel(false);
      restart();
    } catch (error) {
      pushSnackbar({ status: 'failed', text: errorText(error, t), durationMs: 5000 });
    } finally {
      setCancelling(false);
    }
  };

  // Another host's import (a brand admin may read its hotels' imports) is read only: nobody but
  // the host that made it runs or cancels it.
  const readOnly = Boolean(item?.readOnly);
  const step = !item ? 0 : AT_RECEPTION.includes(item.status) || (wantsReception && item.status === 'reviewed') ? 2 : 1;
  const cancellable = item && !readOnly && ['reviewed', 'failed'].includes(item.status);

  const header = (
    <PageHeader
      title={t('customer_import.title')}
      description={t('customer_import.description')}
      actions={
        <Anchor component={Link} to="/customer-list" size="sm">
          {t('customer_import.back_to_list')}
        </Anchor>
      }
    />
  );
  if (id && current.isError) {
    // An import that does not exist or that this role cannot see: said once, on its own, not as a
    // message inside an empty upload form.
    const missing = isApiError(current.error) && current.error.status === 404;
    return (
      <>
        {header}
        <Paper withBorder radius="md" p="xl" data-testid="import-not-found">
          <EmptyState
            readOnly
            title={missing ? t('customer_import.not_found_title') : t('customer_import.not_loaded')}
            description={missing ? t('customer_import.not_found') : errorText(current.error, t)}
          />
          <Group justify="center">
            <Button onClick={restart}>{t('customer_import.result.another')}</Button>
          </Group>
        </Paper>
      </>
    );
  }

  return (
    <>
      {header}
      <Paper withBorder radius="md" p="lg">
        <Stepper active={item?.status === 'completed' ? 3 : step} allowNextStepsSelect={false} mb="lg" size="sm">
          <Stepper.Step label={t('customer_import.steps.upload')} />
          <Stepper.Step label={t('customer_import.steps.review')} />
          <Stepper.Step label={t('customer_import.steps.reception')} />
        </Stepper>
        {step === 0 && (id ? <Loader size="sm" data-testid="import-loading" /> : <UploadStep onUploaded={show} />)}
        {item && item.status === 'cancelled' && (
          <Stack align="flex-start">
            <Alert color="gray">{t('customer_import.result.cancelled')}</Alert>
            <Button onClick={restart}>{t('customer_import.result.another')}</Button>
          </Stack>
        )}
        {item && step >= 1 && item.status !== 'cancelled' && (
          <Stack gap="md">
            <FileSummary item={item} />
            {item.status === 'rejected' && item.error && (
              <Stack align="flex-start" data-testid="import-rejected">
                <Alert color="red" title={t('customer_import.result.rejected_title')} w="100%">
                  {t(`errors.${item.error.code}`, { defaultValue: item.error.message })}
                  {item.error.row ? ` ${t('customer_import.result.at_row', { row: item.error.row })}` : ''}
                </Alert>
                <Button onClick={restart}>{t('customer_import.result.another')}</Button>
              </Stack>
            )}
            {step === 1 && item.status !== 'rejected' && <ReviewStep item={item} />}
            {readOnly && (
              <Alert color="gray" data-testid="import-read-only">
                {t('customer_import.read_only')}
              </Alert>
            )}
            {step === 2 && (
              <ReceptionStep
                item={item}
                readOnly={readOnly}
                running={running}
                onRun={(r, segmentId) => void run(r, segmentId)}
                onAnother={restart}
              />
            )}
            <Group justify="space-between">
              <Group>
                {step === 2 && item.status === 'reviewed' && (
                  <Button variant="default" onClick={() => setWantsReception(false)}>
                    {t('customer_import.back')}
                  </Button>
                )}
                {cancellable && (
                  <Button variant="subtle" color="red" onClick={() => setConfirmCancel(true)}>
                    {t('customer_import.cancel')}
                  </Button>
                )}
              </Group>
              {step === 1 && item.status === 'reviewed' && !readOnly && (
                <Button onClick={() => setWantsReception(true)} data-testid="import-next">
                  {t('customer_import.next')}
                </Button>
              )}
            </Group>
          </Stack>
        )}
      </Paper>
      <ConfirmDialog
        opened={confirmCancel}
        title={t('customer_import.cancel_confirm_title')}
        message={t('customer_import.cancel_confirm_message')}
        confirmLabel={t('customer_import.cancel_confirm')}
        cancelLabel={t('customer_import.cancel_keep')}
        danger
        loading={cancelling}
        onConfirm={() => void cancel()}
        onClose={() => setConfirmCancel(false)}
      />
    </>
  );
}
