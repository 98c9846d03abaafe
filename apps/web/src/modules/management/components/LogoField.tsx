import { Avatar, Button, Group, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/http/ApiError';
import { useImageUpload } from '../../ui/hooks/useImageUpload';
import { logoFileProblem, uploadLogo } from '../api/logoUpload';

export interface TLogoFieldProps {
  value: string | null;
  onChange: (logoUrl: string) => void;
  /** A catalogue key shown under the field (e.g. errors.logo_required from the form). */
  error?: string | null;
  disabled?: boolean;
  required?: boolean;
}

const UPLOAD_CODES = new Set(['logo_wrong_type', 'logo_too_big', 'logo_required']);

/** A logo with its preview; choosing a file uploads it at once and hands back its URL. */
export function LogoField({ value, onChange, error, disabled = false, required = false }: TLogoFieldProps) {
  const { t } = useTranslation();
  const logo = useImageUpload({
    problemOf: logoFileProblem,
    upload: uploadLogo,
    refusalOf: (failure) => {
      const code = isApiError(failure) ? (failure.fields?.file?.code ?? failure.code) : '';
      return UPLOAD_CODES.has(code) ? `errors.${code}` : 'errors.upload_failed';
    },
    onUploaded: onChange,
  });

  const shown = logo.problem ?? error ?? null;
  return (
    <Input.Wrapper label={t('hosts.fields.logo')} required={required} error={shown ? t(shown) : null}>
      <Group gap="md" mt={4} align="center">
        <Avatar src={value} size={64} radius="md" alt={t('hosts.logo_preview')} data-testid="logo-preview">
          <IconPhoto size={28} />
        </Avatar>
        {!disabled && (
          <Stack gap={4}>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconUpload size={14} />}
              loading={logo.uploading}
              onClick={logo.pick}
            >
              {value ? t('hosts.change_logo') : t('hosts.upload_logo')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('hosts.logo_hint')}
            </Text>
          </Stack>
        )}
        <input {...logo.inputProps} data-testid="logo-file" />
      </Group>
    </Input.Wrapper>
  );
}
