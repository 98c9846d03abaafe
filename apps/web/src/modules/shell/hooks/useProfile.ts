import type { TMe } from '@yado/contracts/auth';
import { useSuspenseQuery } from '@tanstack/react-query';
import { profileQuery } from '../api/profile';

/** The signed-in user; the shell's loader has fetched it before any page renders. */
export function useProfile(): TMe {
  return useSuspenseQuery(profileQuery).data;
}
