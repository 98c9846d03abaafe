import { NativeSelect } from '@mantine/core';
import { ROLES_BY_LEVEL, type THostLevel } from '@yado/contracts/tenancy';
import { useTranslation } from 'react-i18next';

export interface TRoleSelectProps {
  level: THostLevel;
  value: string;
  onChange: (role: string) => void;
  label: string;
  /** The text of the empty choice: "choose a role" in forms, "all roles" in filters. */
  emptyLabel: string;
  error?: string | null;
  required?: boolean;
  name?: string;
}

/** The roles that exist at the acting host's level, by their specification names. */
export function RoleSelect({ level, value, onChange, label, emptyLabel, error, required, name }: TRoleSelectProps) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={label}
      name={name}
      required={required}
      value={value}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[
        { value: '', label: emptyLabel },
        ...ROLES_BY_LEVEL[level].map((role) => ({ value: role, label: t(`roles.${level}.${role}`) })),
      ]}
    />
  );
}
