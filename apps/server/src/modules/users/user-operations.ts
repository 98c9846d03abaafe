import { randomUUID } from 'node:crypto';
import {
  isValidEmail,
  ROLES_BY_LEVEL,
  fullName,
  roleDisplayName,
  splitFullName,
  type TRole,
  type TUser,
} from '@yado/contracts';
import { sqlStateOf, type TTx } from '../../db/client.ts';
import { AppError, badRequest, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { QUEUES, type TSendAccountLink } from '../../jobs/queue.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { diff, recordAudit } from '../audit/record-audit.ts';
import { emailExists, revokeUserSessions } from '../auth/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import {
  deleteAssignment,
  findMember,
  findUsersByEmails,
  insertAssignment,
  insertUser,
  listMembers,
  membersAmong,
  promoteAnotherDefault,
  updateAssignmentRole,
  updateUserRow,
  type TMemberRow,
} from './queries.ts';

function toUser(ctx: TActingContext, row: TMemberRow): TUser {
  return {
    id: row.id,
    fullName: fullName(row.firstName, row.lastName),
    firstName: row.firstName,
    lastName: row.lastName,
    nickName: row.nickName,
    email: row.email,
    phoneNumber: row.phoneNumber,
    role: row.role,
    roleName: roleDisplayName(ctx.host.level, row.role),
    status: row.status,
    origin: row.origin,
    canChangeStatus: ctx.role === 'granduser' || row.originalHostId === ctx.host.id,
    hasPassword: row.hasPassword,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listUsers(
  rt: TRuntime,
  ctx: TActingContext,
  f: { search?: string; role?: string; status?: string; page: number; pageSize: number },
) {
  return inTenant(rt, ctx, async (tx) => {
    const { rows, total } = await listMembers(tx, ctx.host.id, f);
    return { items: rows.map((r) => toUser(ctx, r)), total, page: f.page, pageSize: f.pageSize };
  });
}

async function mustFindMember(tx: TTx, ctx: TActingContext, userId: string): Promise<TMemberRow> {
  const row = await findMember(tx, ctx.host.id, userId);
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

export async function getUser(rt: TRuntime, ctx: TActingContext, userId: string): Promise<TUser> {
  return inTenant(rt, ctx, async (tx) => toUser(ctx, await mustFindMember(tx, ctx, userId)));
}

function roleAtHost(ctx: TActingContext, role: string, fields: TFieldErrors): TRole | null {
  if (!role) {
    fields.role = fieldError('role_required');
    return null;
  }
  if (!ROLES_BY_LEVEL[ctx.host.level].includes(role as TRole)) {
    fields.role = fieldError('value_not_allowed');
    return null;
  }
  return role as TRole;
}

function validatePerson(input: { fullName: string; nickName: string; phoneNumber: string }, fields: TFieldErrors) {
  if (!input.fullName) fields.fullName = fieldError('field_required_fill');
  if (!input.nickName) fields.nickName = fieldError('field_required_fill');
  const phone = input.phoneNumber.replace(/[\s-]/g, '');
  if (!phone) fields.phoneNumber = fieldError('field_required_fill');
  else if (!/^[0-9]+$/.test(phone)) fields.phoneNumber = fieldError('use_numbers_only');
  return phone;
}

/** Adds a new user originating at the acting host and mails them a link to set a password. */
export async function createUser(
  rt: TRuntime,
  ctx: TActingContext,
  input: {
    fullName: string;
    nickName: string;
    email: string;
    phoneNumber: string;
    role: string;
    language?: 'ja' | 'en';
  },
): Promise<TUser> {
  const fields: TFieldErrors = {};
  const phone = validatePerson(input, fields);
  const email = input.email.trim();
  if (!email) fields.email = fieldError('email_required');
  else if (!isValidEmail(email)) fields.email = fieldError('email_invalid');
  const role = roleAtHost(ctx, input.role, fields);
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  if (await emailExists(rt.database.db, email))
    throw new AppError(409, 'email_registered', { email: fieldError('email_registered') });

  const id = randomUUID();
  const language = input.language ?? ctx.user.language;
  const user = await inTenant(rt, ctx, async (tx) => {
    const { firstName, lastName } = splitFullName(input.fullName);
    await insertUser(tx, {
      id,
      email,
      firstName,
      lastName,
      nickName: input.nickName,
      phoneNumber: phone,
      language,
      originalHostId: ctx.host.id,
    });
    await insertAssignment(tx, {
      userId: id,
      hostId: ctx.host.id,
      brandId: ctx.host.brandId,
      role: role as TRole,
      isDefault: true,
      origin: 'original',
    });
    await recordAudit(tx, ctx, {
      action: 'create',
      targetType: 'user',
      targetId: id,
      brandId: ctx.host.brandId,
      changes: { role },
    });
    return toUser(ctx, await mustFindMember(tx, ctx, id));
  }).catch((error: unknown) => {
    // A concurrent registration of the same address loses the race on the unique index.
    if (sqlStateOf(error) === '23505')
      throw new AppError(409, 'email_registered', { email: fieldError('email_registered') });
    throw error;
  });
  const job: TSendAccountLink = { userId: id, purpose: 'invitation', language, hostName: ctx.host.name };
  await rt.queue.send(QUEUES.sendAccountLink, job);
  return user;
}

export async function updateUser(
  rt: TRuntime,
  ctx: TActingContext,
  userId: string,
  input: { fullName: string; nickName: string; phoneNumber: string; role: string },
): Promise<TUser> {
  const fields: TFieldErrors = {};
  const phone = validatePerson(input, fields);
  const role = roleAtHost(ctx, input.role, fields);
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  return inTenant(rt, ctx, async (tx) => {
    const before = await mustFindMember(tx, ctx, userId);
    if (userId === ctx.user.id && role !== before.role) throw new AppError(403, 'cannot_change_self');
    const { firstName, lastName } = splitFullName(input.fullName);
    const after = { firstName, lastName, nickName: input.nickName, phoneNumber: phone };
    await updateUserRow(tx, userId, after);
    if (role && role !== before.role) await updateAssignmentRole(tx, before.assignmentId, role);
    // The role's values, but only the names of personal fields: the audit log holds no personal data.
    const { role: roleChange, ...personal } = diff(before, { ...after, role });
    await recordAudit(tx, ctx, {
      action: 'update',
      targetType: 'user',
      targetId: userId,
      brandId: ctx.host.brandId,
      changes: { ...(roleChange ? { role: roleChange } : {}), fields: Object.keys(personal) },
    });
    return toUser(ctx, await mustFindMember(tx, ctx, userId));
  });
}

/**
 * Activates or deactivates a user. Status is the user's own, across every host, so only their
 * original host (or the granduser) may change it. Deactivation ends their sessions at once.
 */
export async function setUserStatus(
  rt: TRuntime,
  ctx: TActingContext,
  userId: string,
  status: 'active' | 'inactive',
): Promise<TUser> {
  const user = await inTenant(rt, ctx, async (tx) => {
    const before = await mustFindMember(tx, ctx, userId);
    if (userId === ctx.user.id) throw new AppError(403, 'cannot_change_self');
    if (ctx.role !== 'granduser' && before.originalHostId !== ctx.host.id) throw new AppError(403, 'not_original_host');
    if (before.status !== status) {
      await updateUserRow(tx, userId, { status });
      await recordAudit(tx, ctx, {
        action: 'status_change',
        targetType: 'user',
        targetId: userId,
        brandId: ctx.host.brandId,
        changes: { status: [before.status, status] },
      });
    }
    return toUser(ctx, await mustFindMember(tx, ctx, userId));
  });
  if (status === 'inactive') await revokeUserSessions(rt.database.db, userId, new Date());
  return user;
}

/** Takes away the user's role at the acting host; the user and their other roles remain. */
export async function removeUserRole(rt: TRuntime, ctx: TActingContext, userId: string): Promise<{ id: string }> {
  const wasDefault = await inTenant(rt, ctx, async (tx) => {
    const member = await mustFindMember(tx, ctx, userId);
    if (userId === ctx.user.id) throw new AppError(403, 'cannot_change_self');
    await deleteAssignment(tx, member.assignmentId);
    await recordAudit(tx, ctx, {
      action: 'remove_role',
      targetType: 'user',
      targetId: userId,
      brandId: ctx.host.brandId,
      changes: { role: member.role },
    });
    return member.isDefault;
  });
  // The user's other roles may be in other brands, out of this context's reach.
  if (wasDefault) await promoteAnotherDefault(rt.database.db, userId);
  return { id: userId };
}

/** Gives registered users of other hosts a role here. The whole list is refused if one is wrong. */
export async function inviteUsers(
  rt: TRuntime,
  ctx: TActingContext,
  input: { emails: string[]; role: string },
): Promise<{ invited: TUser[] }> {
  const fields: TFieldErrors = {};
  const role = roleAtHost(ctx, input.role, fields);
  const emails = input.emails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (emails.length === 0) fields.emails = fieldError('email_required');
  else if (emails.some((e) => !isValidEmail(e))) fields.emails = fieldError('email_invalid');
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  // Each refusal names the addresses it is about (`params.emails`), so a long list can be put right.
  const refuse = (
    status: number,
    code: 'duplicate_input' | 'unregistered_emails' | 'existing_users',
    which: string[],
  ) => new AppError(status, code, { emails: fieldError(code) }, undefined, { emails: which.join(', ') });
  const repeated = [...new Set(emails.filter((e, i) => emails.indexOf(e) !== i))];
  if (repeated.length > 0) throw refuse(400, 'duplicate_input', repeated);
  const found = await findUsersByEmails(rt.database.db, emails);
  if (found.length !== emails.length) {
    const registered = new Set(found.map((u) => u.email.toLowerCase()));
    throw refuse(
      400,
      'unregistered_emails',
      emails.filter((e) => !registered.has(e)),
    );
  }
  return inTenant(rt, ctx, async (tx) => {
    const already = await membersAmong(
      tx,
      ctx.host.id,
      found.map((u) => u.id),
    );
    if (already.length > 0)
      throw refuse(
        409,
        'existing_users',
        found.filter((u) => already.includes(u.id)).map((u) => u.email.toLowerCase()),
      );
    const invited: TUser[] = [];
    for (const u of found) {
      await insertAssignment(tx, {
        userId: u.id,
        hostId: ctx.host.id,
        brandId: ctx.host.brandId,
        role: role as TRole,
        isDefault: false,
        origin: 'invited',
      });
      await recordAudit(tx, ctx, {
        action: 'invite',
        targetType: 'user',
        targetId: u.id,
        brandId: ctx.host.brandId,
        changes: { role },
      });
      invited.push(toUser(ctx, await mustFindMember(tx, ctx, u.id)));
    }
    return { invited };
  });
}
