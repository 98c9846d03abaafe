import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function UserStatusBadge({ status }: { status: 'active' | 'inactive' }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={status === 'active' ? 'teal' : 'gray'} data-testid="user-status">
      {t(`users.status.${status}`)}
    </Badge>
  );
}
