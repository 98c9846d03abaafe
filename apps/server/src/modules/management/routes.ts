import { managementApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import {
  createHost,
  deleteHost,
  getHostDetail,
  listHostsOfLevel,
  setHotelGroup,
  updateHost,
} from './host-operations.ts';

/** Filters a context may use: a brand filter only across brands, a group filter only across groups. */
function filtersFor(ctx: TActingContext, query: { brandId?: string; hotelGroupId?: string }) {
  return {
    brandId: ctx.host.level === 'grand_user' ? query.brandId : undefined,
    hotelGroupId: ctx.host.level === 'grand_user' || ctx.host.level === 'brand' ? query.hotelGroupId : undefined,
  };
}

export function managementRoutes(app: FastifyInstance, rt: TRuntime): void {
  const { brands, hotelGroups, hotels } = managementApi;

  route(app, brands.list, { entitlement: 'manage_brand.read_brand_at_brand_list' }, async ({ query, ctx }) => ({
    ...(await listHostsOfLevel(rt, ctx, { ...query, level: 'brand', ...filtersFor(ctx, {}) })),
    page: query.page,
    pageSize: query.pageSize,
  }));
  route(app, brands.get, { entitlement: 'manage_brand.read_brand_at_brand_list' }, async ({ params, ctx }) =>
    getHostDetail(rt, ctx, 'brand', uuid(params.id)),
  );
  route(app, brands.create, { entitlement: 'manage_brand.create_brand' }, async ({ body, ctx }) =>
    createHost(rt, ctx, 'brand', body),
  );
  route(app, brands.update, { entitlement: 'manage_brand.update_brand' }, async ({ params, body, ctx }) =>
    updateHost(rt, ctx, 'brand', uuid(params.id), body),
  );
  route(app, brands.remove, { entitlement: 'manage_brand.delete_brand' }, async ({ params, body, ctx }) =>
    deleteHost(rt, ctx, 'brand', uuid(params.id), body.confirmation),
  );

  route(app, hotelGroups.list, { entitlement: 'manage_hotel_group.read_group_list' }, async ({ query, ctx }) => ({
    ...(await listHostsOfLevel(rt, ctx, { ...query, level: 'hotel_group', ...filtersFor(ctx, query) })),
    page: query.page,
    pageSize: query.pageSize,
  }));
  route(
    app,
    hotelGroups.get,
    { entitlement: 'manage_hotel_group.read_hotel_group_at_hotel_group' },
    async ({ params, ctx }) => getHostDetail(rt, ctx, 'hotel_group', uuid(params.id)),
  );
  route(app, hotelGroups.create, { entitlement: 'manage_hotel_group.create_hotel_group' }, async ({ body, ctx }) =>
    createHost(rt, ctx, 'hotel_group', body),
  );
  route(
    app,
    hotelGroups.update,
    { entitlement: 'manage_hotel_group.update_hotel_group' },
    async ({ params, body, ctx }) => updateHost(rt, ctx, 'hotel_group', uuid(params.id), body),
  );
  route(
    app,
    hotelGroups.remove,
    { entitlement: 'manage_hotel_group.delete_hotel_group' },
    async ({ params, body, ctx }) => deleteHost(rt, ctx, 'hotel_group', uuid(params.id), body.confirmation),
  );

  route(app, hotels.list, { entitlement: 'manage_hotel.read_hotel_at_hotel_list' }, async ({ query, ctx }) => ({
    ...(await listHostsOfLevel(rt, ctx, { ...query, level: 'hotel', ...filtersFor(ctx, query) })),
    page: query.page,
    pageSize: query.pageSize,
  }));
  route(app, hotels.get, { entitlement: 'manage_hotel.read_hotel_at_hotel_list' }, async ({ params, ctx }) =>
    getHostDetail(rt, ctx, 'hotel', uuid(params.id)),
  );
  route(app, hotels.create, { entitlement: 'manage_hotel.create_hotel' }, async ({ body, ctx }) =>
    createHost(rt, ctx, 'hotel', body),
  );
  route(app, hotels.update, { entitlement: 'manage_hotel.update_hotel' }, async ({ params, body, ctx }) =>
    updateHost(rt, ctx, 'hotel', uuid(params.id), body),
  );
  route(app, hotels.remove, { entitlement: 'manage_hotel.delete_hotel' }, async ({ params, body, ctx }) =>
    deleteHost(rt, ctx, 'hotel', uuid(params.id), body.confirmation),
  );
  route(app, hotels.setGroup, { entitlement: 'manage_hotel.add_hotel_to_group' }, async ({ params, body, ctx }) =>
    setHotelGroup(rt, ctx, uuid(params.id), body.hotelGroupId),
  );
}
