import { Button, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { imageErrorKey, imageFileProblem, uploadImage } from '../api/templatesCalls';

/** An uploaded cover for the template list; without one the list shows the template itself. */
export function CoverField({ value, onChange }: { value: string | null; onChange: (url: string | null) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    const found = imageFileProblem(file);
    setProblem(found);
    if (found) return;
    setUploading(true);
    try {
      onChange(await uploadImage(file));
    } catch (error) {
      setProblem(imageErrorKey(error, 'upload_failed'));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Input.Wrapper label={t('templates.fields.cover')} error={problem ? t(problem) : null}>
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
              loading={uploading}
              onClick={() => input.current?.click()}
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
        <input
          ref={input}
          type="file"
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          hidden
          data-testid="cover-file"
          onChange={(event) => void choose(event)}
        />
      </Group>
    </Input.Wrapper>
  );
}
