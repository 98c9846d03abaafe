import { Alert, Box, Button, Group, List, Loader, Paper, Select, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileUpload } from '@tabler/icons-react';
import type { TCustomerImport } from '@yado/contracts/customer-imports';
import { IMPORT_MAX_BYTES } from '@yado/contracts/customer-imports';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/http/ApiError';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { pushSnackbar } from '../../ui/components/snackbarStore';
import { downloadSample, hotelChoicesQuery, uploadImport } from '../api/importCalls';
import { fieldKey } from '../../../lib/i18n/fieldKey';

/**
 * Step one: a CSV dropped or chosen is uploaded at once; the server tells its encoding and maps
 * its columns (shown in step two). A hotel group (or a brand that wants to) names the hotel the
 * customers belong to; a hotel imports into itself.
 */
export function UploadStep({ onUploaded }: { onUploaded: (created: TCustomerImport) => void }) {
  const { t, i18n } = useTranslation();
  const me = useProfile();
  const level = me.meta.level;
  const choosesHotel = level !== 'hotel';
  const hotels = useQuery({
    ...hotelChoicesQuery,
    enabled: choosesHotel && me.entitlements['manage_hotel.read_hotel_at_hotel_list'],
  });
  const [hotelId, setHotelId] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ text: string; missing: string[] } | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const hotelRequired = choosesHotel && level !== 'brand';

  const send = async (file: File | undefined) => {
    if (!file) return;
    setFailure(null);
    if (file.size >= IMPORT_MAX_BYTES) {
      setFailure({ text: t('errors.import_file_too_big'), missing: [] });
      return;
    }
    if (hotelRequired && !hotelId) {
      setFailure({ text: t('errors.import_hotel_required'), missing: [] });
      return;
    }
    setUploading(file.name);
    try {
      onUploaded(await uploadImport(file, hotelId));
    } catch (error) {
      const missing =
        isApiError(error) && error.fields
          ? Object.entries(error.fields)
              .filter(([, f]) => f.code === 'import_missing_column')
              .map(([field]) => field)
          : [];
      setFailure({ text: errorText(error, t), missing });
    } finally {
      setUploading(null);
    }
  };

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void send(event.dataTransfer.files[0]);
  };

  return (
    <Stack gap="md">
      {choosesHotel && (
        <Select
          label={t('customer_import.upload.hotel_label')}
          placeholder={t('customer_import.upload.hotel_placeholder')}
          description={t(
            level === 'brand' ? 'customer_import.upload.hotel_hint_brand' : 'customer_import.upload.hotel_hint_group',
          )}
          data={(hotels.data?.items ?? []).map((h) => ({ value: h.id, label: h.name }))}
          value={hotelId}
          onChange={setHotelId}
          required={hotelRequired}
          clearable={!hotelRequired}
          maw={420}
          data-testid="import-hotel"
        />
      )}
      <Paper
        withBorder
        radius="md"
        p="xl"
        data-testid="import-dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        onClick={() => !uploading && input.current?.click()}
        style={{
          borderStyle: 'dashed',
          cursor: 'pointer',
          background: dragging ? 'var(--mantine-color-blue-light)' : undefined,
        }}
      >
        <Stack align="center" gap="xs">
          {uploading ? <Loader size="md" /> : <IconFileUpload size={40} stroke={1.5} />}
          <Text fw={600} ta="center">
            {uploading
              ? t('customer_import.upload.uploading', { name: uploading })
              : t('customer_import.upload.drop_title')}
          </Text>
          <Text size="sm" c="dimmed" ta="center" maw={560}>
            {t('customer_import.upload.drop_hint')}
          </Text>
          <Button variant="light" disabled={Boolean(uploading)}>
            {t('customer_import.upload.choose')}
          </Button>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconDownload size={14} />}
            data-testid="import-sample"
            onClick={(event) => {
              // The drop zone's own click opens the file chooser: not for this one.
              event.stopPropagation();
              downloadSample(i18n.language === 'en' ? 'en' : 'ja').catch(() =>
                pushSnackbar({ status: 'failed', text: t('errors.general'), durationMs: 5000 }),
              );
            }}
          >
            {t('customer_import.upload.sample')}
          </Button>
        </Stack>
        <input
          ref={input}
          type="file"
          accept=".csv,.txt,text/csv"
          hidden
          data-testid="import-file"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            void send(file);
          }}
        />
      </Paper>
      {failure && (
        <Alert color="red" data-testid="import-upload-error">
          <Box>{failure.text}</Box>
          {failure.missing.length > 0 && (
            <Group gap="xs" mt="xs">
              <Text size="sm">{t('customer_import.upload.missing_columns')}</Text>
              <List size="sm">
                {failure.missing.map((f) => (
                  <List.Item key={f}>{t(`customer_import.fields.${fieldKey(f)}`)}</List.Item>
                ))}
              </List>
            </Group>
          )}
        </Alert>
      )}
    </Stack>
  );
}
