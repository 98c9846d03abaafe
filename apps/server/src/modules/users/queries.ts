import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { roleAssignments, users } from '../../db/schema.ts';

const columns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  nickName: users.nickName,
  email: users.email,
  phoneNumber: users.phoneNumber,
  status: users.status,
  originalHostId: users.originalHostId,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  createdAt: users.createdAt,
  role: roleAssignments.role,
  origin: roleAssignments.origin,
  isDefault: roleAssignments.isDefault,
  assignmentId: roleAssignments.id,
};
export type TMemberRow = {
  id: string;
  firstName: string;
  lastName: string;
  nickName: string | null;
  email: string;
  phoneNumber: string | null;
  status: 'active' | 'inactive';
  originalHostId: string | null;
  hasPassword: boolean;
  createdAt: Date;
  role: 'granduser' | 'admin' | 'staff' | 'viewer';
  origin: 'original' | 'invited';
  isDefault: boolean;
  assignmentId: string;
};

/** Users holding a role at one host. */
export async function listMembers(
  tx: TTx,
  hostId: string,
  f: { search?: string; role?: string; status?: string; page: number; pageSize: number },
): Promise<{ rows: TMemberRow[]; total: number }> {
  const term = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    eq(roleAssignments.hostId, hostId),
    term
      ? or(
          ilike(users.email, term),
          ilike(users.nickName, term),
          ilike(sql`${users.lastName} || ' ' || ${users.firstName}`, term),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, term),
          ilike(users.phoneNumber, term),
        )
      : undefined,
    f.role ? eq(roleAssignments.role, f.role as TMemberRow['role']) : undefined,
    f.status ? eq(users.status, f.status as TMemberRow['status']) : undefined,
  );
  const rows = await tx
    .select(columns)
    .from(roleAssignments)
    .innerJoin(users, eq(users.id, roleAssignments.userId))
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize);
  const [total] = await tx
    .select({ n: count() })
    .from(roleAssignments)
    .innerJoin(users, eq(users.id, roleAssignments.userId))
    .where(where);
  return { rows: rows as TMemberRow[], total: total?.n ?? 0 };
}

export async function findMember(tx: TTx, hostId: string, userId: string): Promise<TMemberRow | null> {
  const [row] = await tx
    .select(columns)
    .from(roleAssignments)
    .innerJoin(users, eq(users.id, roleAssignments.userId))
    .where(and(eq(roleAssignments.hostId, hostId), eq(roleAssignments.userId, userId)));
  return (row as TMemberRow | undefined) ?? null;
}

/** Inserted without RETURNING: the new row is not yet visible to its brand until it has a role. */
export async function insertUser(tx: TTx, row: typeof users.$inferInsert): Promise<void> {
  await tx.insert(users).values(row);
}

export async function insertAssignment(tx: TTx, row: typeof roleAssignments.$inferInsert): Promise<void> {
  await tx.insert(roleAssignments).values(row);
}

export async function updateUserRow(tx: TTx, id: string, values: Partial<typeof users.$inferInsert>): Promise<void> {
  await tx
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id));
}

export async function updateAssignmentRole(tx: TTx, assignmentId: string, role: TMemberRow['role']): Promise<void> {
  await tx.update(roleAssignments).set({ role }).where(eq(roleAssignments.id, assignmentId));
}

export async function deleteAssignment(tx: TTx, assignmentId: string): Promise<void> {
  await tx.delete(roleAssignments).where(eq(roleAssignments.id, assignmentId));
}

export async function membersAmong(tx: TTx, hostId: string, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await tx
    .select({ userId: roleAssignments.userId })
    .from(roleAssignments)
    .where(and(eq(roleAssignments.hostId, hostId), inArray(roleAssignments.userId, userIds)));
  return rows.map((r) => r.userId);
}

/*
 * Across brands, by the user's own id or email only: used where a user of another brand is
 * the subject (invitations, a default role moving to another brand). Privileged connection.
 */
export async function findUsersByEmails(db: TTx, emails: string[]) {
  if (emails.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        emails.map((e) => e.toLowerCase()),
      ),
    );
}

export async function promoteAnotherDefault(db: TTx, userId: string): Promise<void> {
  await db.execute(sql`
    update role_assignments set is_default = true
    where id = (
      select ra.id from role_assignments ra join hosts h on h.id = ra.host_id
      where ra.user_id = ${userId} and h.deleted_at is null
      order by ra.created_at limit 1)
      and not exists (select 1 from role_assignments d where d.user_id = ${userId} and d.is_default)`);
}
