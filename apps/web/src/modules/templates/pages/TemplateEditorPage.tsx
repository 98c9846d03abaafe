import { Center, Loader, Paper } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { templateQuery, TEMPLATES_QUERY_KEY } from '../api/templatesCalls';

// The editor (drag and drop, rich text) is its own chunk, downloaded only when a template is opened.
const FlexBuilder = lazy(() => import('../editor/FlexBuilder').then((m) => ({ default: m.FlexBuilder })));

const loading = (
  <Center py="xl">
    <Loader />
  </Center>
);

/** A template in the flex builder; read-only for a brand's template below the brand or without templates.update. */
export function TemplateEditorPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const can = useProfile().entitlements;
  const queryClient = useQueryClient();
  const template = useQuery(templateQuery(id));
  // A reload (after another tab saved) starts the editor again from the stored template.
  const [reloads, setReloads] = useState(0);

  if (template.isError) {
    return (
      <Paper withBorder radius="md" p="xl">
        {/* The reason once: a template not found says "Page not found." (not twice), another failure its own text. */}
        <EmptyState readOnly title={errorText(template.error, t)} description={null} />
      </Paper>
    );
  }
  if (!template.data) return loading;
  const readOnly = !template.data.editable || !can['templates.update'];
  return (
    <Suspense fallback={loading}>
      <FlexBuilder
        key={`${id}:${reloads}`}
        template={template.data}
        readOnly={readOnly}
        onSaved={(saved) => {
          // The cache holds the latest save, so coming back to the template opens what was saved.
          queryClient.setQueryData(templateQuery(id).queryKey, saved);
          void queryClient.invalidateQueries({ queryKey: [...TEMPLATES_QUERY_KEY, 'list'], refetchType: 'none' });
        }}
        onReload={async () => {
          await queryClient.refetchQueries({ queryKey: templateQuery(id).queryKey });
          setReloads((n) => n + 1);
        }}
      />
    </Suspense>
  );
}
