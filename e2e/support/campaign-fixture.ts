import { expect } from 'vitest';
import { apiCall, uniqueEmail } from './api';
import type { TLanguage } from './browser';

/** An hour in Tokyo `offsetHours` from now, as the sending settings take it ("HH:00"). */
export const tokyoHour = (offsetHours: number) =>
  `${String((new Date().getUTCHours() + 9 + offsetHours + 48) % 24).padStart(2, '0')}:00`;

/** What quietHoursAway did: how to put the settings back, and a time inside the quiet hours it set. */
export interface TQuietHoursAway {
  restore: () => Promise<void>;
  /** "HH:30" in Tokyo, inside the quiet hours set (read from them, not from the clock again). */
  inside: string;
}

/**
 * Puts the brand's quiet hours (21:00-08:00 by default) a few hours away from now, as `token` (a
 * brand admin of さくらホテルズ), so "send now" sends now whatever the time of the run; answers
 * what puts the brand's own settings back, for the spec's afterAll, and a time inside them (a spec
 * that worked it out again from the clock later met another hour when its test ran past one).
 */
export async function quietHoursAway(token: string): Promise<TQuietHoursAway> {
  const current = await apiCall<{ own: Record<string, unknown> }>('GET', '/v1/sending/settings', { token });
  const own = current.data.own;
  const start = tokyoHour(4);
  const moved = await apiCall('PUT', '/v1/sending/settings', {
    token,
    body: {
      ...own,
      quietHoursStart: start,
      quietHoursEnd: `${String((Number(start.slice(0, 2)) + 2) % 24).padStart(2, '0')}:00`,
    },
  });
  expect(moved.status).toBe(200);
  return {
    restore: async () => {
      await apiCall('PUT', '/v1/sending/settings', { token, body: own });
    },
    inside: `${String((Number(start.slice(0, 2)) + 1) % 24).padStart(2, '0')}:30`,
  };
}

/**
 * A template language's content: one paragraph of `text` (also the subject unless `subject` is
 * given), followed by the blocks of `after` (a button, say).
 */
export const paragraphContent = (text: string, { subject = text, after = [] as object[] } = {}) => ({
  subject,
  preheader: '',
  document: {
    version: 1,
    sections: [
      {
        id: 's1',
        columns: [
          {
            id: 'c1',
            blocks: [
              {
                id: 't',
                type: 'text',
                content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
              },
              ...after,
            ],
          },
        ],
      },
    ],
  },
});

export interface TArrangedCampaign {
  run: string;
  /** The guests' addresses, in creation order. */
  guests: string[];
  subjectA: string;
  subjectB: string;
  campaignId: string;
}

/**
 * A draft campaign of the brand (as `token`, a brand admin of さくらホテルズ) to `guests` new
 * guests of this run at さくらホテル 新宿, in a static segment, with a one-paragraph template in
 * Japanese and English, through the API.
 */
export async function arrangeCampaign(
  token: string,
  language: TLanguage,
  { guests: count, prefix }: { guests: number; prefix: string },
): Promise<TArrangedCampaign> {
  const hotels = await apiCall<{ items: { id: string; name: string }[] }>('GET', '/v1/hotels?pageSize=100', {
    token,
  });
  const hotelId = hotels.data.items.find((h) => h.name === 'さくらホテル 新宿')!.id;
  const run = `${Date.now().toString(36)}${language}`;
  const guests: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = uniqueEmail(`${prefix}-${i}`);
    const created = await apiCall<{ id: string }>('POST', '/v1/customers', {
      token,
      body: {
        lastName: `${prefix[0]!.toUpperCase()}${prefix.slice(1)}${run}`,
        firstName: `G${i}`,
        email,
        phone: `080${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        address: '東京都新宿区西新宿2-2-2',
        hotelId,
      },
    });
    expect(created.status, JSON.stringify(created.data)).toBe(200);
    guests.push(email);
    ids.push(created.data.id);
  }
  const segment = await apiCall<{ id: string }>('POST', '/v1/segments', {
    token,
    body: { name: `${prefix} ${run}`, type: 'static' },
  });
  expect(segment.status).toBe(200);
  expect(
    (await apiCall('POST', `/v1/segments/${segment.data.id}/members`, { token, body: { customerIds: ids } })).status,
  ).toBe(200);
  const template = await apiCall<{ id: string }>('POST', '/v1/templates', {
    token,
    body: {
      name: `${prefix} ${run}`,
      defaultLanguage: 'ja',
      contents: { ja: paragraphContent('冬のご案内です。'), en: paragraphContent('Our winter news.') },
    },
  });
  expect(template.status).toBe(200);
  const subjectA = `冬の特別プラン ${run}`;
  const campaign = await apiCall<{ id: string }>('POST', '/v1/campaigns', {
    token,
    body: {
      name: `${prefix} ${run}`,
      subject: subjectA,
      recipients: { segmentIds: [segment.data.id], excludeSegmentIds: [] },
      templateId: template.data.id,
    },
  });
  expect(campaign.status, JSON.stringify(campaign.data)).toBe(200);
  return { run, guests, subjectA, subjectB: `冬だけの特別料金 ${run}`, campaignId: campaign.data.id };
}
