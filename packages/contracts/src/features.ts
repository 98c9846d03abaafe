import { z } from 'zod';

/** Feature flags of the specification, section 6. */
export const FEATURE_FLAGS = [
  'automation',
  'dynamic_segmentation',
  'customer_new_fields',
  'booking_history',
  'invite_new_user',
  'allocation_summary',
  'existing_segment_automation',
  'filter_template_be',
  'flex_builder',
] as const;
export type TFeatureFlag = (typeof FEATURE_FLAGS)[number];
export const ZFeatureFlags = z.record(z.enum(FEATURE_FLAGS), z.boolean());
export type TFeatureFlags = Record<TFeatureFlag, boolean>;

export const ENVIRONMENTS = ['dev', 'staging', 'production'] as const;
export type TEnvironment = (typeof ENVIRONMENTS)[number];

/**
 * Every flag is on in all environments except flex_builder, which is on only in dev; `off` turns
 * flags off for a deployment (the server's FEATURES_OFF).
 */
export function featureFlagsFor(environment: TEnvironment, off: readonly TFeatureFlag[] = []): TFeatureFlags {
  const flags = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true])) as TFeatureFlags;
  flags.flex_builder = environment === 'dev';
  for (const flag of off) flags[flag] = false;
  return flags;
}
