import { Button, Card, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import * as templatesApi from '@yado/contracts/templates';
import type { TSection, TTemplateLanguage, TTemplateSummary } from '@yado/contracts/templates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { request } from '../../../lib/http/request';
import { EmptyState } from '../../ui/components/EmptyState';
import { SearchInput } from '../../ui/components/SearchInput';
import { templateListQuery } from '../api/templatesCalls';
import { TemplateCover } from '../components/TemplateCover';

export interface TTemplatePickerDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The template being edited is not offered. */
  currentId: string;
  language: TTemplateLanguage;
  onPick: (sections: TSection[]) => void;
}

/** The palette's "templates" block: a saved template's blocks, in the language edited (else its default). */
export function TemplatePickerDialog({ opened, onClose, currentId, language, onPick }: TTemplatePickerDialogProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState<string | null>(null);
  const templates = useQuery({ ...templateListQuery({ search, sort: '-updated_at', page: 1 }), enabled: opened });
  const items = (templates.data?.items ?? []).filter((item) => item.id !== currentId);

  const pick = async (summary: TTemplateSummary) => {
    setLoading(summary.id);
    setFailure(null);
    try {
      const template = await request(templatesApi.get, { params: { id: summary.id } });
      const content = template.contents[language] ?? template.contents[template.defaultLanguage];
      onPick(content?.document.sections ?? []);
      onClose();
    } catch (error) {
      setFailure(errorText(error, t));
    } finally {
      setLoading(null);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      centered
      title={t('templates.picker.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        <SearchInput onSearch={setSearch} placeholder={t('templates.list.search')} />
        {failure && (
          <Text c="red" size="sm" role="alert">
            {failure}
          </Text>
        )}
        {templates.data && items.length === 0 ? (
          <EmptyState readOnly />
        ) : (
          <SimpleGrid cols={3} spacing="sm">
            {items.map((item) => (
              <Card key={item.id} withBorder padding={0} radius="md">
                <Card.Section>
                  <TemplateCover template={item} />
                </Card.Section>
                <Group p="sm" justify="space-between" wrap="nowrap">
                  <Text size="sm" fw={600} lineClamp={1}>
                    {item.name}
                  </Text>
                  <Button size="xs" loading={loading === item.id} onClick={() => void pick(item)}>
                    {t('templates.picker.insert')}
                  </Button>
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Modal>
  );
}
