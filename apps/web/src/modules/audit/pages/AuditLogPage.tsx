import { NativeSelect, Paper, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hostChoicesQuery } from '../../management/api/hostsCalls';
import { PageHeader } from '../../ui/components/PageHeader';
import { AuditLogTable } from '../components/AuditLogTable';

/**
 * The granduser's audit log: everything, or one brand and all below it. A hotel group's or a
 * hotel's own log is on its detail page.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  const [brandId, setBrandId] = useState('');
  const brands = useQuery(hostChoicesQuery('brand', null, true));
  return (
    <>
      <PageHeader title={t('nav.audit_log')} description={t('audit.description')} />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <NativeSelect
            label={t('audit.scope')}
            name="brandId"
            maw={360}
            value={brandId}
            onChange={(event) => setBrandId(event.currentTarget.value)}
            data={[
              { value: '', label: t('audit.all_hosts') },
              ...(brands.data ?? []).map((b) => ({ value: b.id, label: b.name })),
            ]}
          />
          <AuditLogTable key={brandId} hostId={brandId || null} />
        </Stack>
      </Paper>
    </>
  );
}
