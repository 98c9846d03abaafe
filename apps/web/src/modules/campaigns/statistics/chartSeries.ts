import type { TCampaignSeries } from '@yado/contracts/tracking';

/** The counters the statistics chart draws, with their texts and colours. */
export const CHART_SERIES = [
  { key: 'delivered', text: 'delivered', color: 'blue.6' },
  { key: 'uniqueOpens', text: 'unique_opens', color: 'teal.6' },
  { key: 'machineOpens', text: 'machine_opens', color: 'gray.5' },
  { key: 'uniqueClicks', text: 'unique_clicks', color: 'orange.6' },
  { key: 'conversions', text: 'conversions', color: 'grape.6' },
] as const;

/**
 * Whether the chart would draw anything: an hour with only skipped or waiting mails is a point
 * whose drawn counters are all zero, and a chart of flat zeros says less than "No events yet".
 */
export const chartHasEvents = (points: TCampaignSeries['points']): boolean =>
  points.some((point) => CHART_SERIES.some((s) => point[s.key] > 0));
