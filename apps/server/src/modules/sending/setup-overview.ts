import type { TSetupOverview } from '@yado/contracts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { brandOfContext, listDomains } from './domains.ts';
import { emailSettingsOrNull } from './email-settings.ts';
import { brandHasRows } from './queries.ts';

/**
 * The Setup area at a glance. Segments and templates are other areas' tables: while a table does
 * not exist in this database the item says the area is not available yet, never a made-up state.
 */
export async function setupOverview(rt: TRuntime, ctx: TActingContext): Promise<TSetupOverview> {
  brandOfContext(ctx);
  const settings = await emailSettingsOrNull(rt, ctx);
  const { domains } = await listDomains(rt, ctx);
  const [segments, templates] = await inTenant(rt, ctx, async (tx) => [
    await brandHasRows(tx, 'segments'),
    await brandHasRows(tx, 'templates'),
  ]);
  const status = (found: boolean) => (found ? 'done' : 'todo') as 'done' | 'todo';
  const sender = settings?.effective;
  return {
    settings,
    domains,
    checklist: [
      {
        item: 'sender',
        status: sender?.senderEmail && sender.senderName && sender.unsubscribedMessage ? 'done' : 'todo',
      },
      { item: 'verified_domain', status: settings?.senderDomain?.state === 'verified' ? 'done' : 'todo' },
      { item: 'segment', status: status(segments) },
      { item: 'template', status: status(templates) },
    ],
  };
}
