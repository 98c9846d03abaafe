import { Alert, Button, FileButton, Group, Modal, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { MEMBER_FILE_REPORT_ROWS, type TMemberFileReport } from '@yado/contracts/segments';
import { IconFileUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { importMembers } from '../api/segmentsCalls';

/**
 * Static segment members from a file of phones or emails (UTF-8 or CP932), then the report:
 * rows read, matched and unmatched, added and already in, and the unmatched rows with why.
 */
export function MemberFileDialog({
  segmentId,
  opened,
  onClose,
  onAdded,
}: {
  segmentId: string;
  opened: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<TMemberFileReport | null>(null);
  useEffect(() => {
    if (!opened) return;
    setFile(null);
    setError(null);
    setReport(null);
  }, [opened]);

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      setReport(await importMembers(segmentId, file));
      onAdded();
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={t('segmentation.file.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md" data-testid="member-file-dialog">
        <Text size="sm">{t('segmentation.file.help')}</Text>
        <Group gap="sm">
          <FileButton
            onChange={setFile}
            accept=".csv,.txt,text/csv,text/plain"
            inputProps={{ 'data-testid': 'member-file' } as never}
          >
            {(props) => (
              <Button variant="default" leftSection={<IconFileUpload size={16} />} {...props}>
                {t('segmentation.file.choose')}
              </Button>
            )}
          </FileButton>
          {file && <Text size="sm">{file.name}</Text>}
        </Group>
        {error && (
          <Alert color="red" data-testid="member-file-error">
            {error}
          </Alert>
        )}
        {report && <FileReport report={report} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
          <Button disabled={!file} loading={busy} onClick={() => void upload()} data-testid="member-file-submit">
            {t('segmentation.file.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function FileReport({ report }: { report: TMemberFileReport }) {
  const { t } = useTranslation();
  const counts = [
    ['rows', report.rows],
    ['matched', report.matched],
    ['unmatched', report.unmatched],
    ['added', report.added],
    ['already_in', report.alreadyIn],
  ] as const;
  return (
    <Stack gap="sm" data-testid="member-file-report">
      <SimpleGrid cols={5}>
        {counts.map(([key, value]) => (
          <Paper key={key} withBorder radius="md" p="xs" data-testid={`member-file-${key}`}>
            <Text size="xs" c="dimmed">
              {t(`segmentation.file.${key}`)}
            </Text>
            <Text fw={700}>{value.toLocaleString()}</Text>
          </Paper>
        ))}
      </SimpleGrid>
      {report.unmatchedRows.length > 0 && (
        <Table.ScrollContainer minWidth={420} mah={260}>
          <Table data-testid="member-file-unmatched-rows" withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('segmentation.file.row')}</Table.Th>
                <Table.Th>{t('segmentation.file.value')}</Table.Th>
                <Table.Th>{t('segmentation.file.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.unmatchedRows.map((row) => (
                <Table.Tr key={row.row}>
                  <Table.Td>{row.row}</Table.Td>
                  <Table.Td>{row.value}</Table.Td>
                  <Table.Td>{t(`segmentation.file.reasons.${row.reason}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {report.unmatched > report.unmatchedRows.length && (
        <Text size="xs" c="dimmed">
          {t('segmentation.file.more_rows', { count: MEMBER_FILE_REPORT_ROWS })}
        </Text>
      )}
    </Stack>
  );
}
