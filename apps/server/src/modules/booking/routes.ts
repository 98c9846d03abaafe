import { bookingApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { bookingStatus, connectBookingSystem, disconnectBookingSystem, requestSync } from './booking-connection.ts';

export function bookingRoutes(app: FastifyInstance, rt: TRuntime): void {
  const access = { entitlement: 'settings.manage_booking_system' } as const;
  route(app, bookingApi.status, access, async ({ ctx }) => bookingStatus(rt, ctx));
  route(app, bookingApi.connect, access, async ({ body, ctx }) => connectBookingSystem(rt, ctx, body));
  route(app, bookingApi.disconnect, access, async ({ ctx }) => disconnectBookingSystem(rt, ctx));
  route(app, bookingApi.syncNow, access, async ({ ctx }) => requestSync(rt, ctx));
}
