import type { TMe } from '@yado/contracts/auth';
import type { TCampaign, TCampaignStatistics } from '@yado/contracts/campaigns';
import type { TExperimentReport, TVariantKey } from '@yado/contracts/experiments';
import { entitlementsFor } from '@yado/contracts/entitlements';
import { featureFlagsFor } from '@yado/contracts/features';
import type { TSegment } from '@yado/contracts/segments';
import { roleDisplayName } from '@yado/contracts/tenancy';
import type { THostLevel, TRole } from '@yado/contracts/tenancy';

/** A profile as GET /v1/auth/me answers it, for a role at a level. */
export function profileFixture(level: THostLevel, role: TRole, overrides: Partial<TMe> = {}): TMe {
  return {
    id: 'u1',
    firstName: 'Hanako',
    lastName: 'Sato',
    fullName: 'Hanako Sato',
    nickName: null,
    phoneNumber: null,
    email: 'hanako@demo.test',
    imageUrl: null,
    language: 'en',
    role: roleDisplayName(level, role),
    hostName: 'Sakura Hotel Kyoto',
    hostAddress: null,
    hostRole: null,
    entitlements: entitlementsFor(level, role, true),
    meta: { slug: 'sakura-kyoto', level, hostName: 'Sakura Hotel Kyoto', role },
    isDefaultRole: true,
    features: featureFlagsFor('production'),
    ...overrides,
  };
}

/**
 * A campaign as the campaign routes answer it: a brand's draft with nothing sent, unless
 * `overrides` (and `statistics`) say otherwise.
 */
export function campaignFixture(
  overrides: Partial<TCampaign> = {},
  statistics: Partial<TCampaignStatistics> = {},
): TCampaign {
  return {
    id: 'c1',
    name: '冬のご案内',
    subject: '冬の特別プラン',
    preHeader: '',
    senderEmail: null,
    recipients: { segmentIds: [], excludeSegmentIds: [] },
    templateId: null,
    templateName: null,
    status: 'draft',
    schedule: null,
    sendAt: null,
    startedAt: null,
    finishedAt: null,
    problem: null,
    paused: null,
    hold: null,
    scheduledHold: null,
    scope: 'campaign',
    experiment: {
      variants: [],
      testPercent: 20,
      waitHours: 4,
      metric: 'clicks',
      holdoutPercent: null,
      phase: 'none',
      decideAt: null,
      winner: null,
    },
    statistics: {
      audience: null,
      queued: 0,
      sending: 0,
      claimed: 0,
      sent: 0,
      deferred: 0,
      skipped: 0,
      heldOut: 0,
      failed: 0,
      repeats: 0,
      opened: null,
      clicked: null,
      conversions: null,
      openRate: null,
      clickRate: null,
      ...statistics,
    },
    hostId: 'b1',
    hostName: 'さくらホテルズ',
    hostLevel: 'brand',
    timeZone: 'Asia/Tokyo',
    editable: true,
    createdAt: '2026-11-20T00:00:00.000Z',
    updatedAt: '2026-11-20T00:00:00.000Z',
    createdBy: null,
    updatedBy: null,
    ...overrides,
  };
}

/** A segment as GET /v1/segments/:id answers it: static, counted, owned by the acting brand. */
export function segmentFixture(id: string, overrides: Partial<TSegment> = {}): TSegment {
  return {
    id,
    name: 'Summer guests',
    description: '',
    type: 'static',
    filter: null,
    audience: 12,
    audienceCountedAt: '2026-11-24T00:00:00Z',
    hostId: 'h1',
    hostName: 'さくらホテルズ',
    hostLevel: 'brand',
    editable: true,
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    createdBy: null,
    updatedBy: null,
    ...overrides,
  };
}

const variantReport = (key: TVariantKey, subject: string, sends: number, clicks: number, bookings: number) => ({
  key,
  subject,
  sends,
  humanOpens: clicks * 5,
  clicks,
  bookings,
  revenue: bookings * 32000,
  openRate: { value: (clicks * 5) / sends, low: (clicks * 4.5) / sends, high: (clicks * 5.5) / sends },
  clickRate: { value: clicks / sends, low: (clicks * 0.75) / sends, high: (clicks * 1.3) / sends },
  bookingRate: { value: bookings / sends, low: (bookings * 0.5) / sends, high: (bookings * 1.8) / sends },
});

/**
 * A campaign's A/B test report (GET /v1/campaigns/:id/experiment): A against B on clicks, 1,000 mails
 * each, B ahead (4.1 % against 3.2 %) and declared the winner, with a 10 % holdout measured over the
 * attribution window (7 days) and 30 days.
 */
export function experimentReportFixture(overrides: Partial<TExperimentReport> = {}): TExperimentReport {
  const group = (guests: number, bookings: number) => ({
    guests,
    bookings,
    revenue: bookings * 32000,
    bookingsPerGuest: bookings / guests,
    revenuePerGuest: (bookings * 32000) / guests,
  });
  return {
    phase: 'decided',
    decideAt: '2026-11-25T03:00:00.000Z',
    metric: 'clicks',
    testPercent: 20,
    waitHours: 4,
    variants: [variantReport('A', '冬の特別プラン', 1000, 32, 3), variantReport('B', '冬だけの特別料金', 1000, 41, 5)],
    decision: { kind: 'winner', key: 'B', metric: 'clicks', pValue: 0.03, lift: 0.28 },
    holdout: {
      percent: 10,
      windows: [
        {
          window: 'attribution',
          days: 7,
          mailed: group(9000, 90),
          holdout: group(1000, 6),
          result: {
            kind: 'measured',
            incrementalBookings: { value: 36, low: 24, high: 48 },
            incrementalRevenue: { value: 1152000, low: 768000, high: 1536000 },
            significant: true,
          },
        },
        {
          window: 'days_30',
          days: 30,
          mailed: group(9000, 180),
          holdout: group(1000, 17),
          result: {
            kind: 'measured',
            incrementalBookings: { value: 27, low: -9, high: 63 },
            incrementalRevenue: { value: 864000, low: -288000, high: 2016000 },
            significant: false,
          },
        },
      ],
    },
    ...overrides,
  };
}

/** A scenario as GET /v1/scenarios/:id answers it: a brand's draft with a birthday trigger. */
export const scenarioFixture = (
  updatedAt: string,
  nodes: unknown[] = [{ id: 't', type: 'trigger', position: { x: 0, y: 0 }, data: { kind: 'birthday' } }],
) => ({
  id: 's1',
  name: 'Birthday',
  description: '',
  status: 'draft',
  graph: { version: 1, nodes, edges: [] },
  run: {
    period: { kind: 'long_run' },
    startDate: null,
    startTime: null,
    endDate: null,
    endTime: null,
    timeZone: 'Asia/Tokyo',
    sendTime: '09:00',
  },
  faults: [],
  nodes: [],
  presetId: null,
  holdoutPercent: null as number | null,
  startedAt: null,
  stoppedAt: null,
  completedAt: null,
  startsAt: null,
  endsAt: null,
  hostId: 'brand',
  hostName: 'さくらホテルズ',
  hostLevel: 'brand',
  editable: true,
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt,
  createdBy: null,
  updatedBy: null,
});
