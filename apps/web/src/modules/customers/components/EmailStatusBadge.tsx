import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TEmailStatus } from '../api/customersCalls';

export function EmailStatusBadge({ status }: { status: TEmailStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={status === 'active' ? 'teal' : 'gray'}
      // Never cut short in a narrow table column.
      miw="max-content"
      data-testid="email-status"
    >
      {t(`customers.email_status.${status}`)}
    </Badge>
  );
}
