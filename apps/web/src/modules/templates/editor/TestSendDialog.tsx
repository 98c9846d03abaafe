import { Button, Group, Modal, SegmentedControl, Stack, TagsInput, Text, Input } from '@mantine/core';
import { TEST_SEND_MAX_RECIPIENTS, type TTemplateLanguage } from '@yado/contracts/templates';
import { isAccountEmail } from '@yado/contracts/validation';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { showSnackbar } from '../../ui/components/Snackbar';
import { testSend } from '../api/templatesCalls';
import { CustomerPicker } from './CustomerPicker';

export interface TTestSendDialogProps {
  opened: boolean;
  onClose: () => void;
  templateId: string;
  initialLanguage: TTemplateLanguage;
  canPickCustomer: boolean;
  defaultEmail: string;
  /** Saves what is being edited first: the test is the saved template. */
  beforeSend: () => Promise<void>;
}

/** A test of the template through SMTP to up to five addresses (it shows in the outbox). */
export function TestSendDialog({
  opened,
  onClose,
  templateId,
  initialLanguage,
  canPickCustomer,
  defaultEmail,
  beforeSend,
}: TTestSendDialogProps) {
  const { t } = useTranslation();
  const [emails, setEmails] = useState<string[]>([]);
  const [language, setLanguage] = useState<TTemplateLanguage>(initialLanguage);
  const [customerId, setCustomerId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setEmails(defaultEmail ? [defaultEmail] : []);
    setLanguage(initialLanguage);
    setProblem(null);
  }, [opened, defaultEmail, initialLanguage]);

  const send = async () => {
    const invalid = emails.find((email) => !isAccountEmail(email));
    if (emails.length === 0) {
      setProblem(t('validation.required'));
      return;
    }
    if (invalid) {
      setProblem(t('templates.test_send.invalid_email', { email: invalid }));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await beforeSend();
      const { sent } = await testSend(templateId, emails, language, customerId ?? undefined);
      showSnackbar({ status: 'success', message: t('templates.test_send.sent', { count: sent }) });
      onClose();
    } catch (error) {
      setProblem(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      title={t('templates.test_send.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        <TagsInput
          label={t('templates.test_send.emails')}
          description={t('templates.test_send.emails_hint', { max: TEST_SEND_MAX_RECIPIENTS })}
          value={emails}
          onChange={(next) => setEmails(next.map((e) => e.trim()).filter(Boolean))}
          maxTags={TEST_SEND_MAX_RECIPIENTS}
          splitChars={[',', ' ', ';']}
          acceptValueOnBlur
          clearable
          data-testid="test-send-emails"
        />
        <Input.Wrapper label={t('templates.test_send.language')}>
          <SegmentedControl
            mt={4}
            value={language}
            onChange={(value) => setLanguage(value as TTemplateLanguage)}
            data={[
              { value: 'ja', label: t('templates.languages.ja') },
              { value: 'en', label: t('templates.languages.en') },
            ]}
          />
        </Input.Wrapper>
        {canPickCustomer && <CustomerPicker value={customerId} onChange={setCustomerId} />}
        {problem && (
          <Text c="red" size="sm" role="alert">
            {problem}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={busy} onClick={() => void send()} data-testid="test-send-submit">
            {t('templates.test_send.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
