import { Anchor, Center, Paper, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TAreaId } from '../../shell/navigation';
import { AreaPage } from './AreaPage';

/** Paths that render without the shell (the scenario editor takes the whole window). */
export function StandalonePage({ areaId }: { areaId: TAreaId }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper w="100%" maw={720} p="lg" radius="md" withBorder>
        <Stack>
          <AreaPage areaId={areaId} />
          <Anchor component={Link} to="/automations/scenario" size="sm">
            {t('areas.back_to_scenarios')}
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
