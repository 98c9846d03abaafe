import { usersApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { uuid } from '../../http/params.ts';
import {
  createUser,
  getUser,
  inviteUsers,
  listUsers,
  removeUserRole,
  setUserStatus,
  updateUser,
} from './user-operations.ts';

export function userRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, usersApi.list, { entitlement: 'authorization.read_user' }, async ({ query, ctx }) =>
    listUsers(rt, ctx, query),
  );
  route(app, usersApi.get, { entitlement: 'authorization.read' }, async ({ params, ctx }) =>
    getUser(rt, ctx, uuid(params.id)),
  );
  route(app, usersApi.create, { entitlement: 'authorization.create' }, async ({ body, ctx }) =>
    createUser(rt, ctx, body),
  );
  route(app, usersApi.update, { entitlement: 'authorization.update' }, async ({ params, body, ctx }) =>
    updateUser(rt, ctx, uuid(params.id), body),
  );
  route(app, usersApi.setStatus, { entitlement: 'authorization.update' }, async ({ params, body, ctx }) =>
    setUserStatus(rt, ctx, uuid(params.id), body.status),
  );
  route(app, usersApi.remove, { entitlement: 'authorization.delete' }, async ({ params, ctx }) =>
    removeUserRole(rt, ctx, uuid(params.id)),
  );
  route(app, usersApi.invite, { entitlement: 'authorization.invite' }, async ({ body, ctx }) =>
    inviteUsers(rt, ctx, body),
  );
}
