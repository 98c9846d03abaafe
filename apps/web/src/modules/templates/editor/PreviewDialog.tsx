import { Alert, Badge, Box, Group, List, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  PREVIEW_WIDTHS,
  TEMPLATE_HTML_WARN_BYTES,
  type TTemplateContents,
  type TTemplateLanguage,
} from '@yado/contracts/templates';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { previewContents } from '../api/templatesCalls';
import { PreviewFrame } from '../components/PreviewFrame';
import { CustomerPicker } from './CustomerPicker';

export type TDevice = keyof typeof PREVIEW_WIDTHS;

export interface TPreviewDialogProps {
  opened: boolean;
  onClose: () => void;
  templateId: string;
  contents: TTemplateContents;
  initialLanguage: TTemplateLanguage;
  canPickCustomer: boolean;
  onSelectBlock: (blockId: string) => void;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/**
 * The server's rendering of what is being edited (saved or not), exactly as it is sent, in a
 * frame as wide as a desktop mail (600 px) or a phone (375 px).
 */
export function PreviewDialog({
  opened,
  onClose,
  templateId,
  contents,
  initialLanguage,
  canPickCustomer,
  onSelectBlock,
}: TPreviewDialogProps) {
  const { t } = useTranslation();
  const [device, setDevice] = useState<TDevice>('desktop');
  const [language, setLanguage] = useState<TTemplateLanguage>(initialLanguage);
  const [customerId, setCustomerId] = useState<string | null>(null);
  const [overflows, setOverflows] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (opened) setLanguage(initialLanguage);
  }, [opened, initialLanguage]);

  const content = contents[language] ?? undefined;
  const preview = useQuery({
    queryKey: ['templates', 'preview-draft', templateId, language, customerId, content ?? null],
    queryFn: ({ signal }) => previewContents(templateId, language, content, customerId ?? undefined, signal),
    enabled: opened,
    staleTime: Infinity,
    gcTime: 0,
  });
  const width = PREVIEW_WIDTHS[device];

  // A mail wider than its frame scrolls sideways on a phone: say so (the frame is same-origin, scriptless).
  const measure = () => {
    const document = frame.current?.contentDocument;
    if (!document?.documentElement) return;
    setOverflows(document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
  };

  const data = preview.data;
  const selectBlock = (blockId: string) => {
    onSelectBlock(blockId);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="auto"
      centered
      title={t('templates.preview.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="sm" miw={680}>
        <Group gap="md" align="flex-end">
          <SegmentedControl
            value={device}
            onChange={(value) => setDevice(value as TDevice)}
            data={[
              { value: 'desktop', label: t('templates.preview.desktop', { width: PREVIEW_WIDTHS.desktop }) },
              { value: 'mobile', label: t('templates.preview.mobile', { width: PREVIEW_WIDTHS.mobile }) },
            ]}
            data-testid="preview-device"
          />
          <SegmentedControl
            value={language}
            onChange={(value) => setLanguage(value as TTemplateLanguage)}
            data={[
              { value: 'ja', label: t('templates.languages.ja') },
              { value: 'en', label: t('templates.languages.en') },
            ]}
            data-testid="preview-language"
          />
          {canPickCustomer && <CustomerPicker value={customerId} onChange={setCustomerId} />}
        </Group>
        {preview.isError && (
          <Text c="red" role="alert">
            {errorText(preview.error, t)}
          </Text>
        )}
        {data && (
          <Stack gap={4}>
            <Text size="sm">
              <Text span fw={600}>
                {t('templates.fields.subject')}:
              </Text>{' '}
              <span data-testid="preview-subject">{data.subject}</span>
            </Text>
            {data.preheader && (
              <Text size="sm" c="dimmed">
                {data.preheader}
              </Text>
            )}
            <Group gap="xs">
              <Badge
                variant="light"
                color={data.htmlBytes > TEMPLATE_HTML_WARN_BYTES ? 'red' : 'gray'}
                data-testid="preview-size"
              >
                {t('templates.preview.size', { size: kb(data.htmlBytes) })}
              </Badge>
              <Badge variant="light">{t(`templates.languages.${data.language}`)}</Badge>
            </Group>
          </Stack>
        )}
        {data && (data.warnings.length > 0 || overflows) && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="preview-warnings" p="xs">
            <List size="sm" spacing={2}>
              {data.warnings.map((warning, i) => (
                <List.Item key={`${warning.code}-${warning.blockId ?? i}`} data-code={warning.code}>
                  {warning.blockId ? (
                    <Text
                      span
                      size="sm"
                      td="underline"
                      style={{ cursor: 'pointer' }}
                      onClick={() => selectBlock(warning.blockId!)}
                    >
                      {t(`templates.warnings.${warning.code}`, { size: kb(data.htmlBytes) })}
                    </Text>
                  ) : (
                    t(`templates.warnings.${warning.code}`, { size: kb(data.htmlBytes) })
                  )}
                </List.Item>
              ))}
              {overflows && <List.Item data-code="overflow">{t('templates.warnings.overflow', { width })}</List.Item>}
            </List>
          </Alert>
        )}
        <Box bg="gray.2" p="md" style={{ display: 'flex', justifyContent: 'center', borderRadius: 8 }}>
          {data ? (
            <Box
              style={{ boxShadow: '0 0 0 1px var(--mantine-color-gray-4)' }}
              data-testid="preview-box"
              data-width={width}
            >
              <PreviewFrame
                key={`${device}-${data.language}`}
                ref={frame}
                html={data.html}
                width={width}
                height={640}
                title={t('templates.preview.frame_title')}
                testId="preview-frame"
              />
            </Box>
          ) : (
            <Stack h={640} justify="center">
              <Loader />
            </Stack>
          )}
        </Box>
        <FrameMeasure frame={frame} html={data?.html} width={width} onMeasure={measure} />
      </Stack>
    </Modal>
  );
}

/** Measures the frame once its document has loaded, and again when the width changes. */
function FrameMeasure({
  frame,
  html,
  width,
  onMeasure,
}: {
  frame: React.RefObject<HTMLIFrameElement | null>;
  html: string | undefined;
  width: number;
  onMeasure: () => void;
}) {
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    element.addEventListener('load', onMeasure);
    onMeasure();
    return () => element.removeEventListener('load', onMeasure);
  }, [frame, html, width, onMeasure]);
  return null;
}
