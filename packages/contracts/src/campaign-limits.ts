/** Lengths of a campaign's texts, shared by campaigns.ts and experiments.ts (a leaf: no import cycle). */
export const CAMPAIGN_SUBJECT_MAX = 200;
export const CAMPAIGN_PRE_HEADER_MAX = 200;
