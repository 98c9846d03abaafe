import { z } from 'zod';
import { ENTITLEMENTS, type TEntitlementMap } from './entitlements.ts';
import { defineEndpoint, envelope } from './http.ts';
import { ZHostLevel, ZRole } from './tenancy.ts';
import { ZFeatureFlags } from './features.ts';

export const ZEmailInput = z.string().trim().max(254);
export const ZPasswordInput = z.string().max(1024);

export const ZLoginBody = z.object({ email: ZEmailInput, password: ZPasswordInput });
export const ZAccessToken = z.object({
  accessToken: z.string(),
  /** Milliseconds since the epoch when the access token stops working. */
  expiresAt: z.number(),
  /** Milliseconds since the epoch when the console should refresh (50 minutes after issue). */
  refreshAt: z.number(),
});
export type TAccessToken = z.infer<typeof ZAccessToken>;

export const ZEntitlementMap = z.object(
  Object.fromEntries(ENTITLEMENTS.map((k) => [k, z.boolean()])) as Record<keyof TEntitlementMap, z.ZodBoolean>,
);

export const ZHostRole = z.object({
  level: ZHostLevel,
  role: ZRole,
  slug: z.string(),
  hostName: z.string(),
  roleName: z.string(),
});

/** The specification's logged-in user (section 3). */
export const ZMe = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  nickName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  email: z.string(),
  imageUrl: z.string().nullable(),
  language: z.enum(['ja', 'en']),
  /** Display name of the acting role, e.g. "Hotel Admin". */
  role: z.string(),
  hostName: z.string(),
  /** The address of the user's original host, when it has one. */
  hostAddress: z.string().nullable(),
  /** The user's original environment: host and role there. */
  hostRole: ZHostRole.nullable(),
  entitlements: ZEntitlementMap,
  meta: z.object({ slug: z.string(), level: ZHostLevel, hostName: z.string(), role: ZRole }),
  isDefaultRole: z.boolean(),
  features: ZFeatureFlags,
});
export type TMe = z.infer<typeof ZMe>;

export const ZAssignableRole = z.object({
  username: z.string(),
  role: ZRole,
  roleName: z.string(),
  level: ZHostLevel,
  slug: z.string(),
  brandName: z.string().nullable(),
  createdDate: z.string(),
  isDefault: z.boolean(),
  isSelected: z.boolean(),
});
export type TAssignableRole = z.infer<typeof ZAssignableRole>;

export const ZAssignableRoles = z.object({
  isDefaultLoggedIn: z.boolean(),
  grandUser: z.array(ZAssignableRole),
  brand: z.array(ZAssignableRole),
  hotelGroup: z.array(ZAssignableRole),
  hotel: z.array(ZAssignableRole),
  defaultTab: ZHostLevel,
});
export type TAssignableRoles = z.infer<typeof ZAssignableRoles>;

export const login = defineEndpoint({
  method: 'POST',
  path: '/v1/auth/login',
  summary: 'Sign in with email and password; sets the refresh cookie',
  body: ZLoginBody,
  response: envelope(ZAccessToken),
});

export const refresh = defineEndpoint({
  method: 'POST',
  path: '/v1/auth/refresh',
  summary: 'Rotate the refresh cookie and get a new access token',
  response: envelope(ZAccessToken),
});

export const logout = defineEndpoint({
  method: 'POST',
  path: '/v1/auth/logout',
  summary: 'Revoke the refresh cookie',
  response: envelope(z.object({ ok: z.literal(true) })),
});

export const forgotPassword = defineEndpoint({
  method: 'POST',
  path: '/v1/auth/forgot-password',
  summary: 'Send a password reset link to a registered email',
  body: z.object({ email: ZEmailInput, language: z.enum(['ja', 'en']).optional() }),
  response: envelope(z.object({ email: z.string() })),
});

export const resetPassword = defineEndpoint({
  method: 'POST',
  path: '/v1/auth/reset-password',
  summary: 'Set a new password with a reset link token',
  body: z.object({ token: z.string().max(200), password: ZPasswordInput }),
  response: envelope(z.object({ ok: z.literal(true) })),
});

export const checkResetToken = defineEndpoint({
  method: 'GET',
  path: '/v1/auth/reset-password',
  summary: 'Tell whether a reset link token can still be used',
  query: z.object({ token: z.string().max(200) }),
  response: envelope(z.object({ valid: z.boolean() })),
});

export const changePassword = defineEndpoint({
  method: 'POST',
  path: '/v1/auth/change-password',
  summary: "Change the signed-in user's password; ends the user's other sessions",
  body: z.object({ currentPassword: ZPasswordInput, newPassword: ZPasswordInput }),
  response: envelope(ZAccessToken),
});

export const me = defineEndpoint({
  method: 'GET',
  path: '/v1/auth/me',
  summary: 'The signed-in user in the acting context given by the role headers',
  response: envelope(ZMe),
});

export const updateLanguage = defineEndpoint({
  method: 'PUT',
  path: '/v1/auth/me/language',
  summary: "Store the signed-in user's language",
  body: z.object({ language: z.enum(['ja', 'en']) }),
  response: envelope(z.object({ language: z.enum(['ja', 'en']) })),
});

export const assignable = defineEndpoint({
  method: 'GET',
  path: '/v1/auth/assignable',
  summary: 'Roles the signed-in user may switch to, filtered by host name',
  query: z.object({ search: z.string().max(200).optional() }),
  response: envelope(ZAssignableRoles),
});

export const exist = defineEndpoint({
  method: 'GET',
  path: '/v1/auth/exist',
  summary: 'Whether an email belongs to a registered user',
  query: z.object({ email: ZEmailInput }),
  response: envelope(z.object({ exist: z.boolean() })),
});

export const ZConfig = z.object({
  environment: z.enum(['dev', 'staging', 'production']),
  embedded: z.boolean(),
  features: ZFeatureFlags,
  bookingSyncHour: z.number(),
});

export const publicConfig = defineEndpoint({
  method: 'GET',
  path: '/v1/config',
  summary: 'Public settings the console needs before sign-in: environment and feature flags',
  response: envelope(ZConfig),
});
