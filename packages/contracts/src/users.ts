import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { ZRole } from './tenancy.ts';

/** The authorization area: users of the acting host (specification sections 2, 3, 5). */

export const ZUser = z.object({
  id: z.string(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  nickName: z.string().nullable(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  role: ZRole,
  roleName: z.string(),
  status: z.enum(['active', 'inactive']),
  origin: z.enum(['original', 'invited']),
  /** Whether the acting host may change the user's status (it is the user's original host). */
  canChangeStatus: z.boolean(),
  hasPassword: z.boolean(),
  createdAt: z.string(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  role: ZRole.optional(),
  status: z.enum(['active', 'inactive']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZUserInput = z.object({
  fullName: z.string().trim().max(200),
  nickName: z.string().trim().max(100),
  email: z.string().trim().max(254),
  phoneNumber: z.string().trim().max(30),
  role: z.string().max(20),
  language: z.enum(['ja', 'en']).optional(),
});
export const ZUserUpdate = ZUserInput.omit({ email: true, language: true });

export const list = defineEndpoint({
  method: 'GET',
  path: '/v1/users',
  summary: 'Users of the acting host',
  query: ZUserListQuery,
  response: envelope(z.object({ items: z.array(ZUser), total: z.number(), page: z.number(), pageSize: z.number() })),
});
export const get = defineEndpoint({
  method: 'GET',
  path: '/v1/users/:id',
  summary: 'One user of the acting host',
  response: envelope(ZUser),
});
export const create = defineEndpoint({
  method: 'POST',
  path: '/v1/users',
  summary: 'Add a user to the acting host; mails a link to set a password',
  body: ZUserInput,
  response: envelope(ZUser),
});
export const update = defineEndpoint({
  method: 'PUT',
  path: '/v1/users/:id',
  summary: "Edit a user's name, phone and role at the acting host",
  body: ZUserUpdate,
  response: envelope(ZUser),
});
export const setStatus = defineEndpoint({
  method: 'PUT',
  path: '/v1/users/:id/status',
  summary: 'Activate or deactivate a user (original host only); deactivation ends access at once',
  body: z.object({ status: z.enum(['active', 'inactive']) }),
  response: envelope(ZUser),
});
export const remove = defineEndpoint({
  method: 'DELETE',
  path: '/v1/users/:id',
  summary: "Remove a user's role at the acting host",
  response: envelope(z.object({ id: z.string() })),
});
export const invite = defineEndpoint({
  method: 'POST',
  path: '/v1/users/invitations',
  summary: 'Give registered users of other hosts a role at the acting host',
  body: z.object({ emails: z.array(z.string().trim().max(254)).max(100), role: z.string().max(20) }),
  response: envelope(z.object({ invited: z.array(ZUser) })),
});
