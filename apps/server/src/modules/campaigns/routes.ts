import { campaignsApi, experimentsApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { route, type TAccess } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { imageUrlResolver } from '../templates/render-template.ts';
import { createLogoStore } from '../uploads/logo-store.ts';
import {
  checkQuietHours,
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  listCampaigns,
  listDeliveries,
  moveCampaign,
  pauseCampaign,
  getExperimentReport,
  pickExperimentWinner,
  previewAudience,
  scheduleCampaign,
  testSendCampaign,
  updateCampaign,
} from './campaign-operations.ts';

type TRule = Exclude<TAccess, 'public'>;

export function campaignRoutes(app: FastifyInstance, rt: TRuntime): void {
  const read: TRule = { entitlement: 'campaign.view_campaign_report' };
  const create: TRule = { entitlement: 'campaign.create' };
  const edit: TRule = { entitlement: 'campaign.update' };
  const building: TRule = { anyOf: ['campaign.create', 'campaign.update'] };
  const imageUrl = imageUrlResolver(rt.config, createLogoStore(rt.config));

  route(app, campaignsApi.list, read, async ({ query, ctx }) => listCampaigns(rt, ctx, query));
  route(app, campaignsApi.audience, building, async ({ body, ctx }) => previewAudience(rt, ctx, body));
  route(app, campaignsApi.quietHours, building, async ({ body, ctx }) => checkQuietHours(rt, ctx, body.schedule));
  route(app, campaignsApi.create, create, async ({ body, ctx }) => createCampaign(rt, ctx, body));
  route(app, campaignsApi.get, read, async ({ params, ctx }) => getCampaign(rt, ctx, uuid(params.id)));
  route(app, campaignsApi.update, edit, async ({ params, body, ctx }) =>
    updateCampaign(rt, ctx, uuid(params.id), body),
  );
  route(app, campaignsApi.remove, { entitlement: 'campaign.delete' }, async ({ params, ctx }) =>
    deleteCampaign(rt, ctx, uuid(params.id)),
  );
  route(app, campaignsApi.schedule, edit, async ({ params, body, ctx }) =>
    scheduleCampaign(rt, ctx, uuid(params.id), body.schedule),
  );
  route(app, campaignsApi.sendNow, edit, async ({ params, ctx }) =>
    scheduleCampaign(rt, ctx, uuid(params.id), { kind: 'now' }),
  );
  route(app, campaignsApi.saveDraft, edit, async ({ params, ctx }) => moveCampaign(rt, ctx, uuid(params.id), 'draft'));
  route(app, campaignsApi.cancel, edit, async ({ params, ctx }) => moveCampaign(rt, ctx, uuid(params.id), 'cancelled'));
  route(app, campaignsApi.pause, edit, async ({ params, ctx }) => pauseCampaign(rt, ctx, uuid(params.id), 'paused'));
  route(app, campaignsApi.resume, edit, async ({ params, ctx }) => pauseCampaign(rt, ctx, uuid(params.id), 'resumed'));
  // Issue 26: the A/B test's winner by hand (the same permission as pause), and its report.
  route(app, experimentsApi.pickWinner, edit, async ({ params, body, ctx }) =>
    pickExperimentWinner(rt, ctx, uuid(params.id), body.key),
  );
  route(app, experimentsApi.experimentReport, read, async ({ params, ctx }) =>
    getExperimentReport(rt, ctx, uuid(params.id)),
  );
  route(app, campaignsApi.duplicate, create, async ({ params, body, ctx }) =>
    duplicateCampaign(rt, ctx, uuid(params.id), body),
  );
  route(app, campaignsApi.testSend, edit, async ({ params, body, ctx }) =>
    testSendCampaign(rt, ctx, uuid(params.id), body, imageUrl),
  );
  route(app, campaignsApi.deliveries, read, async ({ params, query, ctx }) =>
    listDeliveries(rt, ctx, uuid(params.id), query),
  );
}
