import { eq } from 'drizzle-orm';
import type { THostLevel, TRole } from '@yado/contracts';
import type { TDb } from '../db/client.ts';
import { hosts, roleAssignments, users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';

export const DEMO_PASSWORD = 'demo-pass-1';

interface THostSeed {
  slug: string;
  level: THostLevel;
  name: string;
  brand?: string;
  group?: string;
  address?: string;
  email?: string;
  phone?: string;
  /** The hotel's code in the booking simulator's demo account. */
  bookingCode?: string;
}

/** The demo organisation: the platform, two brands (one Japanese), hotel groups and six hotels. */
const HOSTS: THostSeed[] = [
  { slug: 'platform', level: 'grand_user', name: 'Yado' },
  {
    slug: 'sakura-hotels',
    level: 'brand',
    name: 'さくらホテルズ',
    address: '東京都千代田区丸の内1-1-1',
    email: 'info@sakura-hotels.example.jp',
    phone: '0312345678',
  },
  {
    slug: 'sakura-kanto',
    level: 'hotel_group',
    name: '関東エリア',
    brand: 'sakura-hotels',
    address: '東京都新宿区西新宿2-2-2',
  },
  {
    slug: 'sakura-kansai',
    level: 'hotel_group',
    name: '関西エリア',
    brand: 'sakura-hotels',
    address: '京都府京都市下京区烏丸通3-3',
  },
  {
    slug: 'sakura-shinjuku',
    level: 'hotel',
    name: 'さくらホテル 新宿',
    brand: 'sakura-hotels',
    group: 'sakura-kanto',
    address: '東京都新宿区西新宿2-2-2',
    phone: '0333334444',
    bookingCode: 'SKR-SHINJUKU',
  },
  {
    slug: 'sakura-yokohama',
    level: 'hotel',
    name: 'さくらホテル 横浜',
    brand: 'sakura-hotels',
    group: 'sakura-kanto',
    address: '神奈川県横浜市西区みなとみらい4-4',
    phone: '0455556666',
    bookingCode: 'SKR-YOKOHAMA',
  },
  {
    slug: 'sakura-kyoto',
    level: 'hotel',
    name: 'さくらホテル 京都',
    brand: 'sakura-hotels',
    group: 'sakura-kansai',
    address: '京都府京都市下京区烏丸通3-3',
    phone: '0757778888',
    bookingCode: 'SKR-KYOTO',
  },
  {
    slug: 'sakura-hakone',
    level: 'hotel',
    name: 'さくら旅館 箱根',
    brand: 'sakura-hotels',
    address: '神奈川県足柄下郡箱根町湯本5-5',
    phone: '0460991234',
    bookingCode: 'SKR-HAKONE',
  },
  {
    slug: 'harbor-view',
    level: 'brand',
    name: 'Harbor View Hotels',
    address: '1-1 Meriken Park, Chuo-ku, Kobe',
    email: 'hello@harborview.example.com',
    phone: '0781112222',
  },
  {
    slug: 'harbor-coastal',
    level: 'hotel_group',
    name: 'Coastal Collection',
    brand: 'harbor-view',
    address: '1-1 Meriken Park, Chuo-ku, Kobe',
  },
  {
    slug: 'harbor-kobe',
    level: 'hotel',
    name: 'Harbor View Kobe',
    brand: 'harbor-view',
    group: 'harbor-coastal',
    address: '1-1 Meriken Park, Chuo-ku, Kobe',
    phone: '0781113333',
    bookingCode: 'HBV-KOBE',
  },
  {
    slug: 'harbor-okinawa',
    level: 'hotel',
    name: 'Harbor View Okinawa',
    brand: 'harbor-view',
    address: '2-2 Kumoji, Naha, Okinawa',
    phone: '0981114444',
    bookingCode: 'HBV-OKINAWA',
  },
];

interface TAccountSeed {
  email: string;
  firstName: string;
  lastName: string;
  nickName: string;
  phone: string;
  language: 'ja' | 'en';
  description: string;
  /** [host slug, role, origin]; the first is the original host and the default role unless `defaultAt`. */
  roles: [string, TRole][];
  defaultAt?: string;
}

export const DEMO_ACCOUNTS: TAccountSeed[] = [
  {
    email: 'grand@demo.test',
    firstName: '誠',
    lastName: '高橋',
    nickName: 'まこと',
    phone: '09011110001',
    language: 'ja',
    description: 'Granduser (platform)',
    roles: [['platform', 'granduser']],
  },
  {
    email: 'brand.admin@demo.test',
    firstName: '花子',
    lastName: '佐藤',
    nickName: 'はなこ',
    phone: '09011110002',
    language: 'ja',
    description: 'Brand Admin, さくらホテルズ',
    roles: [['sakura-hotels', 'admin']],
  },
  {
    email: 'group.admin@demo.test',
    firstName: '一郎',
    lastName: '鈴木',
    nickName: 'いちろう',
    phone: '09011110003',
    language: 'ja',
    description: 'Hotel Group Admin, 関東エリア',
    roles: [['sakura-kanto', 'admin']],
  },
  {
    email: 'hotel.admin@demo.test',
    firstName: '美咲',
    lastName: '田中',
    nickName: 'みさき',
    phone: '09011110004',
    language: 'ja',
    description: 'Hotel Admin, さくらホテル 新宿',
    roles: [['sakura-shinjuku', 'admin']],
  },
  {
    email: 'hotel.staff@demo.test',
    firstName: '健太',
    lastName: '伊藤',
    nickName: 'けんた',
    phone: '09011110005',
    language: 'ja',
    description: 'Hotel Staff, さくらホテル 新宿',
    roles: [['sakura-shinjuku', 'staff']],
  },
  {
    email: 'hotel.viewer@demo.test',
    firstName: 'さくら',
    lastName: '渡辺',
    nickName: 'さくら',
    phone: '09011110006',
    language: 'ja',
    description: 'Hotel Viewer, さくらホテル 新宿',
    roles: [['sakura-shinjuku', 'viewer']],
  },
  {
    email: 'multi@demo.test',
    firstName: 'Emily',
    lastName: 'Carter',
    nickName: 'Em',
    phone: '09011110007',
    language: 'en',
    description: 'Brand Viewer, Hotel Group Staff, Hotel Admin (default)',
    roles: [
      ['harbor-okinawa', 'admin'],
      ['harbor-view', 'viewer'],
      ['sakura-kansai', 'staff'],
    ],
    defaultAt: 'harbor-okinawa',
  },
  {
    email: 'harbor.admin@demo.test',
    firstName: 'James',
    lastName: 'Walker',
    nickName: 'Jim',
    phone: '09011110008',
    language: 'en',
    description: 'Brand Admin, Harbor View Hotels',
    roles: [['harbor-view', 'admin']],
  },
];

/** Seeds the demo organisation once; later starts find the platform and do nothing. */
export async function seedDemo(db: TDb): Promise<boolean> {
  const existing = await db.select({ id: hosts.id }).from(hosts).where(eq(hosts.slug, 'platform'));
  if (existing.length > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    // Re-checked inside the transaction: two processes starting together seed once.
    const again = await tx.select({ id: hosts.id }).from(hosts).where(eq(hosts.slug, 'platform')).for('update');
    if (again.length > 0) return false;
    const ids = new Map<string, string>();
    const createdBase = Date.parse('2026-04-01T00:00:00Z');
    for (const [i, h] of HOSTS.entries()) {
      const id = crypto.randomUUID();
      ids.set(h.slug, id);
      await tx.insert(hosts).values({
        id,
        level: h.level,
        name: h.name,
        slug: h.slug,
        brandId: h.level === 'brand' ? id : h.brand ? ids.get(h.brand) : null,
        hotelGroupId: h.group ? ids.get(h.group) : null,
        address: h.address ?? null,
        email: h.email ?? null,
        phone: h.phone ?? null,
        bookingHotelCode: h.bookingCode ?? null,
        createdAt: new Date(createdBase + i * 86_400_000),
      });
    }
    const brandOf = (slug: string) => {
      const h = HOSTS.find((x) => x.slug === slug);
      if (!h || h.level === 'grand_user') return null;
      return ids.get(h.level === 'brand' ? h.slug : (h.brand as string)) ?? null;
    };
    for (const a of DEMO_ACCOUNTS) {
      const userId = crypto.randomUUID();
      const original = a.roles[0]?.[0] as string;
      await tx.insert(users).values({
        id: userId,
        email: a.email,
        firstName: a.firstName,
        lastName: a.lastName,
        nickName: a.nickName,
        phoneNumber: a.phone,
        language: a.language,
        passwordHash,
        originalHostId: ids.get(original),
      });
      for (const [slug, role] of a.roles) {
        await tx.insert(roleAssignments).values({
          userId,
          hostId: ids.get(slug) as string,
          brandId: brandOf(slug),
          role,
          isDefault: slug === (a.defaultAt ?? original),
          origin: slug === original ? 'original' : 'invited',
        });
      }
    }
    return true;
  });
}
