import {
  ALTERNATIVE_KEYS,
  VARIANT_KEYS,
  type TCampaignExperiment,
  type TExperimentValues,
  type TVariantKey,
} from '@yado/contracts';
import type { TCampaignRow, TStoredVariant } from '../campaigns/queries.ts';
import type { TExperimentShape } from './assignment.ts';

/**
 * A campaign's experiment (issue 26) between its row and the API: the settings as stored, the
 * shape the snapshot assigns by, and the `experiment` field of the campaign's answer.
 */

export const keyOf = (variant: number): TVariantKey => VARIANT_KEYS[variant] ?? 'A';

/** The stored alternatives B..D of an input (the console's nulls and blanks kept as "same as A"). */
export const storedVariantsOf = (input: TExperimentValues): TStoredVariant[] =>
  input.variants.map((v) => ({
    subject: v.subject,
    preHeader: v.preHeader,
    senderName: v.senderName,
    templateId: v.templateId,
  }));

/** The shape the snapshot assigns by; null when the campaign has neither a test nor a holdout. */
export function experimentShapeOf(
  row: Pick<TCampaignRow, 'id' | 'experiment_variants' | 'experiment_test_percent' | 'holdout_percent'>,
): TExperimentShape | null {
  const alternatives = (row.experiment_variants ?? []).length;
  if (alternatives === 0 && !row.holdout_percent) return null;
  return {
    seed: row.id,
    holdoutShare: (row.holdout_percent ?? 0) / 100,
    testShare: alternatives > 0 ? row.experiment_test_percent / 100 : 0,
    variants: alternatives > 0 ? alternatives + 1 : 1,
  };
}

export function toCampaignExperiment(row: TCampaignRow): TCampaignExperiment {
  const names = row.variant_template_names ?? {};
  return {
    variants: (row.experiment_variants ?? []).map((v, i) => ({
      key: ALTERNATIVE_KEYS[i] ?? 'B',
      subject: v.subject,
      preHeader: v.preHeader,
      senderName: v.senderName,
      templateId: v.templateId,
      templateName: v.templateId ? (names[v.templateId] ?? null) : null,
    })),
    testPercent: row.experiment_test_percent,
    waitHours: row.experiment_wait_hours,
    metric: row.experiment_metric,
    holdoutPercent: row.holdout_percent,
    phase: row.experiment_phase,
    decideAt: row.experiment_decide_at ? new Date(row.experiment_decide_at).toISOString() : null,
    winner:
      row.experiment_winner !== null && row.experiment_how
        ? {
            key: keyOf(row.experiment_winner),
            how: row.experiment_how,
            decidedAt: new Date(row.experiment_decided_at as Date).toISOString(),
            by: row.experiment_decided_by
              ? { id: row.experiment_decided_by, name: row.experiment_decided_by_name ?? '' }
              : null,
          }
        : null,
  };
}
