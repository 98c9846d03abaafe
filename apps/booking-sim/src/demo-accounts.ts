import type { TSimAccountConfig } from './types.ts';

/**
 * The booking-system accounts of the demo. The first two match Yado's demo brands (さくらホテルズ
 * and Harbor View Hotels) hotel for hotel, so the demo can connect them; the others exist to try
 * the unhappy paths: an account no brand uses yet, one that fails now and then, one suspended.
 * The keys are fixed and public: this is a simulator, not a vault.
 */
export const DEMO_BOOKING_ACCOUNTS: readonly TSimAccountConfig[] = [
  {
    id: 'DBK-100234',
    name: 'さくらホテルズ株式会社',
    apiKey: 'dbk_demo_sakura_7f3c9a1e5b2d4068',
    foreignGuestShare: 0.08,
    hotels: [
      { code: 'SKR-SHINJUKU', name: 'さくらホテル 新宿', kind: 'city' },
      { code: 'SKR-YOKOHAMA', name: 'さくらホテル 横浜', kind: 'city' },
      { code: 'SKR-KYOTO', name: 'さくらホテル 京都', kind: 'city' },
      { code: 'SKR-HAKONE', name: 'さくら旅館 箱根', kind: 'ryokan' },
    ],
  },
  {
    id: 'DBK-100871',
    name: 'Harbor View Hotels K.K.',
    apiKey: 'dbk_demo_harbor_2e8b6d0f9c1a4375',
    foreignGuestShare: 0.35,
    hotels: [
      { code: 'HBV-KOBE', name: 'Harbor View Kobe', kind: 'city', language: 'en' },
      { code: 'HBV-OKINAWA', name: 'Harbor View Okinawa', kind: 'resort', language: 'en' },
    ],
  },
  {
    id: 'DBK-100990',
    name: '湯けむり温泉グループ',
    apiKey: 'dbk_demo_yukemuri_5a1d7c3e9b0f2846',
    hotels: [
      { code: 'YKM-KUSATSU', name: '湯けむり亭 草津', kind: 'ryokan' },
      { code: 'YKM-BEPPU', name: '湯けむり亭 別府', kind: 'ryokan' },
    ],
  },
  {
    id: 'DBK-100512',
    name: 'テスト用 不安定アカウント',
    apiKey: 'dbk_demo_flaky_9c4e2a6b8d0f1357',
    guests: 300,
    faults: { failureRate: 0.3, statuses: [500, 503] },
    hotels: [{ code: 'FLK-SAPPORO', name: 'ホテル不安定 札幌', kind: 'city' }],
  },
  {
    id: 'DBK-100013',
    name: '契約停止中ホテル',
    apiKey: 'dbk_demo_suspended_3b7f1d5a9e2c4680',
    guests: 50,
    suspended: true,
    hotels: [{ code: 'SUS-NAGOYA', name: '停止中ホテル 名古屋', kind: 'city' }],
  },
];
