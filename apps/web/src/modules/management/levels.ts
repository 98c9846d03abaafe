import type { TEntitlement } from '@yado/contracts/entitlements';
import * as managementApi from '@yado/contracts/management';
import type { TAreaId } from '../shell/navigation';

export type TManagedLevel = 'brand' | 'hotel_group' | 'hotel';

export interface TLevelConfig {
  level: TManagedLevel;
  areaId: TAreaId;
  listPath: string;
  api: typeof managementApi.brands | typeof managementApi.hotelGroups | typeof managementApi.hotels;
  create: TEntitlement;
  update: TEntitlement;
  remove: TEntitlement;
  readUsers: TEntitlement;
  filterBrand?: TEntitlement;
  filterHotelGroup?: TEntitlement;
}

/** What each management list may do, by the entitlement keys of DESIGN section 5. */
export const LEVELS: Record<TManagedLevel, TLevelConfig> = {
  brand: {
    level: 'brand',
    areaId: 'brand_list',
    listPath: '/management/brand-list',
    api: managementApi.brands,
    create: 'manage_brand.create_brand',
    update: 'manage_brand.update_brand',
    remove: 'manage_brand.delete_brand',
    readUsers: 'manage_brand.read_brand_users',
  },
  hotel_group: {
    level: 'hotel_group',
    areaId: 'hotel_group_list',
    listPath: '/management/hotel-group-list',
    api: managementApi.hotelGroups,
    create: 'manage_hotel_group.create_hotel_group',
    update: 'manage_hotel_group.update_hotel_group',
    remove: 'manage_hotel_group.delete_hotel_group',
    readUsers: 'manage_hotel_group.read_group_users',
    filterBrand: 'manage_hotel_group.filter_brand',
  },
  hotel: {
    level: 'hotel',
    areaId: 'hotel_list',
    listPath: '/management/hotel-list',
    api: managementApi.hotels,
    create: 'manage_hotel.create_hotel',
    update: 'manage_hotel.update_hotel',
    remove: 'manage_hotel.delete_hotel',
    readUsers: 'manage_hotel.read_hotel_users',
    filterBrand: 'manage_hotel.filter_brand',
    filterHotelGroup: 'manage_hotel.filter_hotel_group',
  },
};
