import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushSnackbar } from '../../ui/components/snackbarStore';
import { downloadFailures } from '../api/importCalls';

/** The failed rows of an import with their reasons, as CSV in the page's language. */
export function DownloadFailuresButton({ importId }: { importId: string }) {
  const { t, i18n } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFailures(importId, i18n.language === 'en' ? 'en' : 'ja');
    } catch {
      pushSnackbar({ status: 'failed', text: t('errors.general'), durationMs: 5000 });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconDownload size={14} />}
      loading={downloading}
      onClick={() => void download()}
      data-testid="import-download-failures"
    >
      {t('customer_import.review.download_failures')}
    </Button>
  );
}
