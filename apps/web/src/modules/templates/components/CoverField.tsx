import { Button, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useImageUpload } from '../../ui/hooks/useImageUpload';
import { imageErrorKey, imageFileProblem, uploadImage } from '../api/templatesCalls';

/** An uploaded cover for the template list; without one the list shows the template itself. */
export function CoverField({ value, onChange }: { value: string | null; onChange: (url: string | null) => void }) {
  const { t } = useTranslation();
  const cover = useImageUpload({
    problemOf: imageFileProblem,
    upload: uploadImage,
    refusalOf: (error) => imageErrorKey(error, 'upload_failed'),
    onUploaded: onChange,
  });

  return (
    <Input.Wrapper label={t('templates.fields.cover')} error={cover.problem ? t(cover.problem) : null}>
      <Group gap="md" mt={4} align="center" wrap="nowrap">
        {value ? (
          <Image src={value} w={96} h={64} radius="sm" fit="cover" alt={t('templates.details.cover_preview')} />
        ) : (
          <Stack w={96} h={64} align="center" justify="center" bg="gray.1" style={{ borderRadius: 4 }}>
            <IconPhoto size={24} color="var(--mantine-color-gray-6)" />
          </Stack>
        )}
        <Stack gap={4}>
          <Group gap="xs">
            <Button
              variant="light"
              size="xs"
              leftSection={<IconUpload size={14} />}
              loading={cover.uploading}
              onClick={cover.pick}
            >
              {t('templates.details.upload_cover')}
            </Button>
            {value && (
              <Button
                variant="subtle"
                color="gray"
                size="xs"
                leftSection={<IconTrash size={14} />}
                onClick={() => onChange(null)}
              >
                {t('templates.details.remove_cover')}
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('templates.details.cover_hint')}
          </Text>
        </Stack>
        <input {...cover.inputProps} data-testid="cover-file" />
      </Group>
    </Input.Wrapper>
  );
}
