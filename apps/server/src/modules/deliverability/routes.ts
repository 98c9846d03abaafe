import { deliverabilityApi, domainDeliverabilityApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { route } from '../../http/route.ts';
import { countFeedbackWebhook } from '../../metrics/metrics.ts';
import type { TRuntime } from '../../runtime.ts';
import { MAX_WEBHOOK_BYTES, receiveWebhook } from './webhooks/receive-webhook.ts';
import { listDomainDeliverability } from './domain-deliverability.ts';
import { getProtection, listProtectionAlerts, saveProtection } from './protection-settings.ts';
import { addSuppression, liftSuppression, listSuppressions } from './suppression-list.ts';
import { deleteRelayWebhook, listRelayWebhooks, saveRelayWebhook } from './webhooks/webhook-settings.ts';

interface TWebhookBody {
  text: string;
  json: unknown;
}

export function deliverabilityRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, deliverabilityApi.list, { entitlement: 'customer.read_customer_list' }, async ({ query, ctx }) =>
    listSuppressions(rt, ctx, query),
  );
  route(app, deliverabilityApi.lift, { entitlement: 'customer.change_email_status' }, async ({ params, ctx }) =>
    liftSuppression(rt, ctx, uuid(params.id)),
  );
  route(app, deliverabilityApi.add, { entitlement: 'customer.change_email_status' }, async ({ body, ctx }) =>
    addSuppression(rt, ctx, body),
  );
  // Per sending domain: beside domain authentication, for those who manage it (brand level only).
  route(
    app,
    domainDeliverabilityApi.listDomainDeliverability,
    { entitlement: 'settings.manage_domain_authentication' },
    async ({ ctx }) => listDomainDeliverability(rt, ctx),
  );
  const manage = { entitlement: 'settings.manage_campaign_email' } as const;
  route(app, deliverabilityApi.listRelayWebhooks, manage, async ({ ctx }) => listRelayWebhooks(rt, ctx));
  route(app, deliverabilityApi.saveRelayWebhook, manage, async ({ ctx, params, body }) =>
    saveRelayWebhook(rt, ctx, params.provider as string, body),
  );
  route(app, deliverabilityApi.deleteRelayWebhook, manage, async ({ ctx, params }) =>
    deleteRelayWebhook(rt, ctx, params.provider as string),
  );
  route(app, deliverabilityApi.getProtection, manage, async ({ ctx }) => getProtection(rt, ctx));
  route(app, deliverabilityApi.saveProtection, manage, async ({ ctx, body }) => saveProtection(rt, ctx, body));
  route(app, deliverabilityApi.protectionAlerts, manage, async ({ ctx }) => listProtectionAlerts(rt, ctx));

  void app.register(async (scope) => {
    // The signature covers the body as sent: it is read as text, whatever its type (SNS posts
    // text/plain), and parsed only once verified.
    // It is read as JSON here too when it is JSON, so that the check every route has for texts
    // PostgreSQL cannot keep (http/unstorable-text.ts) sees its values.
    const asText = { parseAs: 'string', bodyLimit: MAX_WEBHOOK_BYTES } as const;
    const read = (_request: unknown, body: string | Buffer, done: (error: null, value: TWebhookBody) => void) => {
      const text = body.toString();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      done(null, { text, json });
    };
    // A relay reads the answer, never a browser: helmet's headers (a CSP read per response, among
    // others) are left off, as on the tracking pixel; nosniff stays, as a constant.
    scope.addHook('onRoute', (options) => {
      options.config = { ...options.config, securityHeaders: false };
    });
    scope.addHook('onRequest', (_request, reply, done) => {
      void reply.header('x-content-type-options', 'nosniff');
      done();
    });
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', asText, read);
    scope.addContentTypeParser('application/json', asText, read);
    const handled = new WeakSet<object>();
    scope.addHook('onResponse', async (request, reply) => {
      // Refused before the handler (too large, an unstorable text, no body): counted here.
      if (reply.statusCode >= 400 && !handled.has(request)) {
        const provider = (request.params as { provider?: string }).provider ?? 'unknown';
        countFeedbackWebhook(
          ['ses', 'sendgrid', 'mailgun', 'postmark'].includes(provider) ? provider : 'unknown',
          'refused_body',
        );
      }
    });
    route(scope, deliverabilityApi.publicRelayWebhook, 'public', async ({ params, request }) => {
      handled.add(request);
      const body = (request.body ?? { text: '', json: undefined }) as TWebhookBody;
      return receiveWebhook(rt, {
        provider: params.provider as string,
        hookId: params.id as string,
        headers: request.headers,
        body: body.text,
        parsed: body.json,
      });
    });
  });
}
