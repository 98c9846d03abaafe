import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { ZHostLevel } from './tenancy.ts';

/** Management of the host tree: brands, hotel groups, hotels (specification section 2). */

export const ZHost = z.object({
  id: z.string(),
  level: ZHostLevel,
  name: z.string(),
  slug: z.string(),
  brandId: z.string().nullable(),
  brandName: z.string().nullable(),
  hotelGroupId: z.string().nullable(),
  hotelGroupName: z.string().nullable(),
  address: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  logoUrl: z.string().nullable(),
  timezone: z.string(),
  /** A hotel's code in the booking system (DBK), which synced reservations are mapped by; null elsewhere. */
  bookingHotelCode: z.string().nullable(),
  createdAt: z.string(),
  hotelGroupCount: z.number(),
  hotelCount: z.number(),
  userCount: z.number(),
});
export type THost = z.infer<typeof ZHost>;

export const HOST_SORTS = ['name', '-name', 'created_at', '-created_at'] as const;

export const ZHostListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  brandId: z.uuid().optional(),
  hotelGroupId: z.uuid().optional(),
  sort: z.enum(HOST_SORTS).default('name'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZHostPage = z.object({ items: z.array(ZHost), total: z.number(), page: z.number(), pageSize: z.number() });

/** Name and address are required; email and phone optional; the logo is required on create. */
export const ZHostInput = z.object({
  name: z.string().trim().max(200),
  address: z.string().trim().max(500),
  email: z.string().trim().max(254).optional().nullable(),
  phone: z.string().trim().max(30).optional().nullable(),
  logoUrl: z.string().max(300).optional().nullable(),
  timezone: z.string().max(64).optional(),
});
export const ZCreateHotelGroup = ZHostInput.extend({ brandId: z.uuid().optional() });
/**
 * A hotel also takes its booking-system code: trimmed (full-width typing folded to ASCII), 1 to 32
 * letters, digits, `-`, `_` or `.`, unique among the brand's hotels. Absent leaves it as it is;
 * null or empty clears it.
 */
export const ZHotelInput = ZHostInput.extend({ bookingHotelCode: z.string().max(100).optional().nullable() });
export const ZCreateHotel = ZHotelInput.extend({
  brandId: z.uuid().optional(),
  hotelGroupId: z.uuid().optional().nullable(),
});
export const ZDeleteHost = z.object({ confirmation: z.string().max(300) });

export const ZHostUser = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.string(),
  roleName: z.string(),
  status: z.enum(['active', 'inactive']),
  origin: z.enum(['original', 'invited']),
});

export const ZHostDetail = ZHost.extend({
  hotelGroups: z.array(z.object({ id: z.string(), name: z.string(), hotelCount: z.number() })),
  hotels: z.array(z.object({ id: z.string(), name: z.string(), hotelGroupName: z.string().nullable() })),
  users: z.array(ZHostUser),
});
export type THostDetail = z.infer<typeof ZHostDetail>;

const idParam = '/:id';
const levelEndpoints = <P extends string>(base: P, noun: string) => ({
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: `List ${noun}s`,
    query: ZHostListQuery,
    response: envelope(ZHostPage),
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}${idParam}`,
    summary: `One ${noun} with its hotels, groups and users`,
    response: envelope(ZHostDetail),
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}${idParam}`,
    summary: `Delete a ${noun} and everything below it (typed confirmation: its name)`,
    body: ZDeleteHost,
    response: envelope(z.object({ id: z.string() })),
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: `${base}${idParam}`,
    summary: `Update a ${noun}`,
    body: ZHostInput,
    response: envelope(ZHost),
  }),
});

export const brands = {
  ...levelEndpoints('/v1/brands', 'brand'),
  create: defineEndpoint({
    method: 'POST',
    path: '/v1/brands',
    summary: 'Create a brand',
    body: ZHostInput,
    response: envelope(ZHost),
  }),
};
export const hotelGroups = {
  ...levelEndpoints('/v1/hotel-groups', 'hotel group'),
  create: defineEndpoint({
    method: 'POST',
    path: '/v1/hotel-groups',
    summary: 'Create a hotel group',
    body: ZCreateHotelGroup,
    response: envelope(ZHost),
  }),
};
export const hotels = {
  ...levelEndpoints('/v1/hotels', 'hotel'),
  update: defineEndpoint({
    method: 'PUT',
    path: '/v1/hotels/:id',
    summary: 'Update a hotel, its booking-system code included',
    body: ZHotelInput,
    response: envelope(ZHost),
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/v1/hotels',
    summary: 'Create a hotel',
    body: ZCreateHotel,
    response: envelope(ZHost),
  }),
  setGroup: defineEndpoint({
    method: 'PUT',
    path: '/v1/hotels/:id/hotel-group',
    summary: 'Put a hotel in a hotel group of its brand, or take it out (null)',
    body: z.object({ hotelGroupId: z.uuid().nullable() }),
    response: envelope(ZHost),
  }),
};

export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const uploadLogo = defineEndpoint({
  method: 'POST',
  path: '/v1/uploads/logo',
  summary: 'Upload a logo (multipart field "file"; .jpg or .png by content, under 5MB)',
  response: envelope(z.object({ logoUrl: z.string() })),
});
