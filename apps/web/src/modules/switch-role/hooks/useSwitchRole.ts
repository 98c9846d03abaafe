import { useQueryClient } from '@tanstack/react-query';
import type { TAssignableRole } from '@yado/contracts/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reloadTo } from '../../../lib/browser/reloadTo';
import { errorText } from '../../../lib/http/errorText';
import type { TRoleSelector } from '../../../lib/session/roleSelector';
import { storeUser } from '../../../lib/session/storage';
import { PROFILE_QUERY_KEY } from '../../shell/api/profile';
import { startAddressFor } from '../../shell/navigation';
import { showSnackbar } from '../../ui/components/Snackbar';
import { fetchProfileAs } from '../api/assignable';

/**
 * Switching = fetch the profile as the new role (the server refuses a role that is not the
 * user's), store it as the selector for every later call, and reload at the new start address.
 * `null` goes back to the default role.
 */
export function useSwitchRole() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [switching, setSwitching] = useState(false);

  const switchTo = async (entry: TAssignableRole | null) => {
    const selector: TRoleSelector | null =
      entry && !entry.isDefault ? { role: entry.role, slug: entry.slug, level: entry.level } : null;
    setSwitching(true);
    try {
      const me = await fetchProfileAs(selector);
      storeUser(me);
      queryClient.setQueryData(PROFILE_QUERY_KEY, me);
      reloadTo(`${startAddressFor(me.entitlements, me.features)}?switchedRoleSuccess=true`);
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
      setSwitching(false);
    }
  };

  return { switchTo, switching };
}
