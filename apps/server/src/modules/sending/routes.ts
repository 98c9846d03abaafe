import { sendingApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { addDomain, getDomain, listDomains, removeDomain, verifyDomain } from './domains.ts';
import { getEmailSettings, updateEmailSettings } from './email-settings.ts';
import { setupOverview } from './setup-overview.ts';

export function sendingRoutes(app: FastifyInstance, rt: TRuntime): void {
  const domains = { entitlement: 'settings.manage_domain_authentication' } as const;
  const email = { entitlement: 'settings.manage_campaign_email' } as const;
  // Editing campaign email settings shows the brand's domains (the sender must be on a verified one).
  route(
    app,
    sendingApi.listDomains,
    { anyOf: ['settings.manage_domain_authentication', 'settings.manage_campaign_email'] },
    async ({ ctx }) => listDomains(rt, ctx),
  );
  route(app, sendingApi.addDomain, domains, async ({ ctx, body }) => addDomain(rt, ctx, body));
  route(app, sendingApi.getDomain, domains, async ({ ctx, params }) => getDomain(rt, ctx, params.id ?? ''));
  route(app, sendingApi.verifyDomain, domains, async ({ ctx, params }) => verifyDomain(rt, ctx, params.id ?? ''));
  route(app, sendingApi.removeDomain, domains, async ({ ctx, params }) => removeDomain(rt, ctx, params.id ?? ''));
  route(app, sendingApi.getSettings, email, async ({ ctx }) => getEmailSettings(rt, ctx));
  route(app, sendingApi.updateSettings, email, async ({ ctx, body }) => updateEmailSettings(rt, ctx, body));
  // The Setup area is offered to everyone who reads campaigns (the sidebar's rule); it only reads.
  route(
    app,
    sendingApi.setupOverview,
    {
      anyOf: [
        'settings.manage_domain_authentication',
        'settings.manage_campaign_email',
        'campaign.view_campaign_report',
      ],
    },
    async ({ ctx }) => setupOverview(rt, ctx),
  );
}
