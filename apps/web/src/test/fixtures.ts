import type { TMe } from '@yado/contracts/auth';
import type { TCampaign, TCampaignStatistics } from '@yado/contracts/campaigns';
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
    scope: 'campaign',
    statistics: {
      audience: null,
      queued: 0,
      sending: 0,
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
