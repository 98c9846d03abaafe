import { trackingApi } from '@yado/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import {
  readCampaignHotels,
  readCampaignLinks,
  readCampaignReport,
  readCampaignSeries,
  readRecipients,
} from './campaign-statistics.ts';
import { keysOf, openClickToken, openDeliveryToken } from './links.ts';
import { machineOpenReason } from './machine-opens.ts';
import { addressKey } from '../auth/throttle.ts';
import { RateWindow } from './rate-window.ts';
import { recorderOf } from './record-events.ts';
import { getTrackingSettings, updateTrackingSettings } from './tracking-settings.ts';
import { undoUnsubscribe, unsubscribeGuest, unsubscribePage } from './unsubscribe.ts';

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * The pixel and the click redirect are the hottest routes there are (every open, every click of
 * every campaign) and answer strangers with an image or a 302, never a page: helmet's page
 * headers (a policy built per response) are skipped for them, and the few headers that do apply
 * are set from these constants.
 */
const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'referrer-policy': 'no-referrer',
} as const;
const PIXEL_HEADERS = {
  ...COMMON_HEADERS,
  'content-type': 'image/gif',
  'cache-control': 'no-store, no-cache, must-revalidate, private',
  // Webmail shows the image from its own origin.
  'cross-origin-resource-policy': 'cross-origin',
} as const;
const REDIRECT_HEADERS = { ...COMMON_HEADERS, 'cache-control': 'no-store' } as const;

/**
 * Route options of the pixel and the redirect: no helmet headers (they set their own), and their
 * requests not logged below warn (two info lines for each of thousands of opens a second say nothing
 * the event log does not; errors still are).
 */
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
function hotPath(rt: TRuntime, summary: string) {
  const configured = LEVELS.indexOf(rt.log.level as (typeof LEVELS)[number]);
  return {
    schema: { summary, tags: ['tracking'] },
    config: { securityHeaders: false as const },
    logLevel: LEVELS[Math.max(configured, LEVELS.indexOf('warn'))],
  };
}

/**
 * Per delivery and minute (TRACKING_EVENTS_PER_MINUTE): opens and clicks over the limit still get
 * their pixel and their redirect but are not recorded, so a replayed link cannot flood the event
 * log. Not per client address: Gmail's image proxy fetches for all its users from a few addresses,
 * and every one of those opens is real. Unsubscribes are never limited while their links are
 * genuine (Gmail sends its users' one-click POSTs from a few addresses, and each must be honoured);
 * an address that presents more than REFUSED_UNSUBSCRIBES_PER_MINUTE forged links in a minute gets
 * 429 until the minute ends. That count is kept in PostgreSQL (the sign-in throttle's auth_failures,
 * keys `unsubscribe:ip:<address>`), so all API processes together allow it, not each of them.
 */
export const REFUSED_UNSUBSCRIBES_PER_MINUTE = 30;

const refusedKey = (ip: string) => addressKey('unsubscribe', ip);

/** Forged links presented by the address within the last minute, by every API process. */
async function refusedLastMinute(rt: TRuntime, ip: string): Promise<number> {
  const { rows } = await rt.database.executeSql(
    `select count(*)::int as n from auth_failures where key = $1 and at > now() - interval '1 minute'`,
    [refusedKey(ip)],
  );
  return (rows[0] as { n: number } | undefined)?.n ?? 0;
}

export function trackingRoutes(app: FastifyInstance, rt: TRuntime): void {
  const recorder = recorderOf(rt);
  const keys = keysOf(rt);
  // Apart, so a pixel fetched over and over does not hide the guest's click.
  const opens = new RateWindow(rt.config.tracking.eventsPerMinute);
  const clicks = new RateWindow(rt.config.tracking.eventsPerMinute);
  app.addHook('onClose', async () => recorder.flush());

  // The pixel never answers an error: a mail client shows a broken image for nothing.
  app.get(
    trackingApi.openPixel.path,
    hotPath(rt, trackingApi.openPixel.summary),
    (request: FastifyRequest<{ Params: { token: string } }>, reply) => {
      const deliveryId = openDeliveryToken(keys, 'open', request.params.token);
      if (deliveryId && request.method === 'GET' && opens.take(deliveryId)) {
        recorder.add({
          kind: 'open',
          deliveryId,
          at: new Date(),
          machine: machineOpenReason(request.headers['user-agent'], request.ip),
        });
      }
      return reply.headers(PIXEL_HEADERS).send(PIXEL);
    },
  );

  app.get(
    trackingApi.clickRedirect.path,
    hotPath(rt, trackingApi.clickRedirect.summary),
    (request: FastifyRequest<{ Params: { token: string } }>, reply) => {
      const click = openClickToken(keys, request.params.token);
      if (!click) throw new AppError(404, 'not_found');
      // A HEAD is a link checker's, not a guest's click.
      if (request.method === 'GET' && clicks.take(click.deliveryId)) {
        recorder.add({
          kind: 'click',
          deliveryId: click.deliveryId,
          at: new Date(),
          linkIndex: click.linkIndex,
          url: click.url,
        });
      }
      return reply.headers(REDIRECT_HEADERS).redirect(click.url, 302);
    },
  );

  void app.register(async (scope) => {
    // RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" as a form; its content is not
    // needed (the token in the address says everything), so any body is read and set aside.
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, null),
    );
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, _body, done) => done(null, null),
    );
    scope.addHook('onRequest', async (request) => {
      if ((await refusedLastMinute(rt, request.ip)) >= REFUSED_UNSUBSCRIBES_PER_MINUTE)
        throw new AppError(429, 'too_many_attempts', undefined, { 'retry-after': '60' });
    });
    /** Counts a refused link against its address. */
    const counted = async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof AppError && error.code === 'unsubscribe_link_invalid')
          await rt.database.executeSql('insert into auth_failures (key) values ($1)', [refusedKey(request.ip)]);
        throw error;
      }
    };
    route(scope, trackingApi.publicUnsubscribe, 'public', async ({ query, request }) =>
      counted(request, () => unsubscribeGuest(rt, query.token, query.source ?? 'one_click')),
    );
    route(scope, trackingApi.publicUnsubscribePage, 'public', async ({ query, request }) =>
      counted(request, () => unsubscribePage(rt, query.token)),
    );
    route(scope, trackingApi.publicUnsubscribeUndo, 'public', async ({ query, request }) =>
      counted(request, () => undoUnsubscribe(rt, query.token)),
    );
  });

  route(
    app,
    trackingApi.getSettings,
    { anyOf: ['settings.manage_campaign_email', 'campaign.view_campaign_report'] },
    async ({ ctx }) => getTrackingSettings(rt, ctx),
  );
  route(app, trackingApi.updateSettings, { entitlement: 'settings.manage_campaign_email' }, async ({ body, ctx }) =>
    updateTrackingSettings(rt, ctx, body),
  );

  const report = { entitlement: 'campaign.view_campaign_report' } as const;
  route(app, trackingApi.statistics, report, async ({ params, ctx }) =>
    readCampaignReport(rt, ctx, params.id as string),
  );
  route(app, trackingApi.series, report, async ({ params, query, ctx }) =>
    readCampaignSeries(rt, ctx, params.id as string, query),
  );
  route(app, trackingApi.links, report, async ({ params, ctx }) => readCampaignLinks(rt, ctx, params.id as string));
  route(app, trackingApi.hotels, report, async ({ params, ctx }) => readCampaignHotels(rt, ctx, params.id as string));
  route(app, trackingApi.recipients, report, async ({ params, query, ctx }) =>
    readRecipients(rt, ctx, params.id as string, query),
  );
}
