import { Box, Center, Image, Loader, Text } from '@mantine/core';
import type { TTemplateSummary } from '@yado/contracts/templates';
import { EMAIL_WIDTH } from '@yado/contracts/templates';
import { useElementSize } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { savedPreviewQuery } from '../api/templatesCalls';
import { PreviewFrame } from './PreviewFrame';

const COVER_HEIGHT = 200;

/**
 * A template's cover: the uploaded image, else the server's rendering of the template itself
 * (its default language), scaled down.
 */
export function TemplateCover({ template }: { template: TTemplateSummary }) {
  const { t } = useTranslation();
  // The mail scaled to the card's width (600 px mails fit any card this way).
  const { ref, width } = useElementSize();
  const scale = width > 0 ? width / EMAIL_WIDTH : 0.4;
  const preview = useQuery({
    ...savedPreviewQuery(template.id, template.version, template.defaultLanguage),
    enabled: template.coverImageUrl === null,
  });
  return (
    <Box
      ref={ref}
      h={COVER_HEIGHT}
      bg="gray.1"
      style={{ overflow: 'hidden', position: 'relative' }}
      data-testid="template-cover"
    >
      {template.coverImageUrl ? (
        <Image
          src={template.coverImageUrl}
          h={COVER_HEIGHT}
          fit="cover"
          alt={t('templates.list.cover_alt', { name: template.name })}
        />
      ) : preview.data ? (
        <Center h={COVER_HEIGHT} style={{ alignItems: 'flex-start' }}>
          <Box w={EMAIL_WIDTH * scale} h={COVER_HEIGHT} style={{ overflow: 'hidden' }}>
            <Box style={{ transform: `scale(${scale})`, transformOrigin: 'top left', width: EMAIL_WIDTH }}>
              <PreviewFrame
                html={preview.data.html}
                width={EMAIL_WIDTH}
                height={Math.ceil(COVER_HEIGHT / scale)}
                title={t('templates.list.cover_alt', { name: template.name })}
                thumbnail
              />
            </Box>
          </Box>
        </Center>
      ) : (
        <Center h={COVER_HEIGHT}>
          {preview.isError ? (
            <Text size="xs" c="dimmed">
              {t('templates.list.cover_unavailable')}
            </Text>
          ) : (
            <Loader size="sm" />
          )}
        </Center>
      )}
    </Box>
  );
}
