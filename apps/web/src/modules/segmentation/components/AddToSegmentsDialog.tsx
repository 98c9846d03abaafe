import { Alert, Button, Checkbox, Group, List, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { SearchInput } from '../../ui/components/SearchInput';
import { addToSegments, SEGMENTS_QUERY_KEY, staticSegmentChoicesQuery } from '../api/segmentsCalls';

interface TAdded {
  id: string;
  name: string;
  added: number;
  alreadyIn: number;
}

/**
 * The customer list's "add to segments" (spec section 2): one customer or a selection joins the
 * static segments of the acting host that the user ticks.
 */
export function AddToSegmentsDialog({
  opened,
  onClose,
  customerIds,
  customerName,
  onAdded,
}: {
  opened: boolean;
  onClose: () => void;
  customerIds: string[];
  /** For one customer: their name, said in the dialog. */
  customerName?: string;
  onAdded?: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<TAdded[] | null>(null);
  const segments = useQuery(staticSegmentChoicesQuery(search, opened));
  useEffect(() => {
    if (!opened) return;
    setChosen([]);
    setError(null);
    setResult(null);
  }, [opened]);
  const names = new Map((segments.data ?? []).map((s) => [s.id, s.name]));

  const add = async () => {
    setBusy(true);
    setError(null);
    try {
      const { segments: added } = await addToSegments(chosen, { customerIds });
      setResult(added.map((s) => ({ ...s, name: names.get(s.id) ?? s.id })));
      await queryClient.invalidateQueries({ queryKey: SEGMENTS_QUERY_KEY });
      onAdded?.();
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
      title={t('segmentation.add.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md" data-testid="add-to-segments">
        <Text size="sm">
          {customerName
            ? t('segmentation.add.help_one', { name: customerName })
            : t('segmentation.add.help_many', { count: customerIds.length })}
        </Text>
        {result ? (
          <Alert color="teal" data-testid="add-to-segments-result">
            <List size="sm">
              {result.map((r) => (
                <List.Item key={r.id}>
                  {t('segmentation.add.result', { name: r.name, added: r.added, already: r.alreadyIn })}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <>
            <SearchInput onSearch={setSearch} placeholder={t('segmentation.list.search')} resetKey={opened} />
            {segments.data && segments.data.length === 0 && !search ? (
              <Text size="sm" c="dimmed">
                {t('segmentation.add.none')}
              </Text>
            ) : (
              <Checkbox.Group label={t('segmentation.add.segments')} value={chosen} onChange={setChosen}>
                <ScrollArea.Autosize mah={280} mt="xs">
                  <Stack gap={6}>
                    {(segments.data ?? []).map((segment) => (
                      <Checkbox key={segment.id} value={segment.id} label={segment.name} />
                    ))}
                  </Stack>
                </ScrollArea.Autosize>
              </Checkbox.Group>
            )}
          </>
        )}
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t(result ? 'common.close' : 'segmentation.actions.cancel')}
          </Button>
          {!result && (
            <Button
              disabled={chosen.length === 0}
              loading={busy}
              onClick={() => void add()}
              data-testid="add-to-segments-submit"
            >
              {t('segmentation.add.submit')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
