import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea, TextInput, Input } from '@mantine/core';
import type { TTemplate, TTemplateLanguage } from '@yado/contracts/templates';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { fieldErrorKeys } from '../../../lib/http/fieldErrors';
import { CoverField } from './CoverField';

export interface TTemplateDetails {
  name: string;
  description: string;
  defaultLanguage: TTemplateLanguage;
  coverImageUrl: string | null;
}

export interface TTemplateDetailsDialogProps {
  opened: boolean;
  /** The template being changed; none when a new one is made. */
  template?: Pick<TTemplate, 'name' | 'description' | 'defaultLanguage' | 'coverImageUrl' | 'languages'>;
  onClose: () => void;
  onSubmit: (details: TTemplateDetails) => Promise<unknown>;
}

/** Name, description, default language and cover of a template: the create form and the editor's details. */
export function TemplateDetailsDialog({ opened, template, onClose, onSubmit }: TTemplateDetailsDialogProps) {
  const { t } = useTranslation();
  const [details, setDetails] = useState<TTemplateDetails>({
    name: '',
    description: '',
    defaultLanguage: 'ja',
    coverImageUrl: null,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The form starts from the template when the dialog opens; an autosave meanwhile must not reset it.
  const initial = useRef(template);
  initial.current = template;
  useEffect(() => {
    if (!opened) return;
    const template = initial.current;
    setDetails({
      name: template?.name ?? '',
      description: template?.description ?? '',
      defaultLanguage: template?.defaultLanguage ?? 'ja',
      coverImageUrl: template?.coverImageUrl ?? null,
    });
    setErrors({});
    setFailure(null);
  }, [opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!details.name.trim()) {
      setErrors({ name: 'validation.required' });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit({ ...details, name: details.name.trim(), description: details.description.trim() });
    } catch (error) {
      const keys = fieldErrorKeys(error);
      setErrors(keys);
      if (Object.keys(keys).length === 0) setFailure(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t(template ? 'templates.details.edit_title' : 'templates.details.create_title')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('templates.fields.name')}
            name="name"
            required
            data-autofocus
            value={details.name}
            error={errors.name ? t(errors.name) : null}
            onChange={(event) => {
              const name = event.currentTarget.value;
              setDetails((d) => ({ ...d, name }));
            }}
          />
          <Textarea
            label={t('templates.fields.description')}
            name="description"
            autosize
            minRows={2}
            value={details.description}
            error={errors.description ? t(errors.description) : null}
            onChange={(event) => {
              const description = event.currentTarget.value;
              setDetails((d) => ({ ...d, description }));
            }}
          />
          <Input.Wrapper
            label={t('templates.fields.default_language')}
            description={t('templates.details.default_language_hint')}
          >
            <SegmentedControl
              mt={4}
              value={details.defaultLanguage}
              onChange={(value) => setDetails((d) => ({ ...d, defaultLanguage: value as TTemplateLanguage }))}
              data={[
                { value: 'ja', label: t('templates.languages.ja') },
                { value: 'en', label: t('templates.languages.en') },
              ]}
            />
          </Input.Wrapper>
          <CoverField
            value={details.coverImageUrl}
            onChange={(coverImageUrl) => setDetails((d) => ({ ...d, coverImageUrl }))}
          />
          {failure && (
            <Text c="red" size="sm" role="alert">
              {failure}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t(template ? 'common.save' : 'templates.details.create_submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
