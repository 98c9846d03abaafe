import { createPublicKey } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { RELAY_PROVIDERS, type TRelayProvider, type TRelayWebhook, type TRelayWebhookInput } from '@yado/contracts';
import { openSecret, sealSecret } from '../../../crypto/secret-box.ts';
import { selectRows, type TTx } from '../../../db/client.ts';
import { AppError, fieldError } from '../../../http/errors.ts';
import { inTenant, type TRuntime } from '../../../runtime.ts';
import { recordAudit } from '../../audit/record-audit.ts';
import type { TActingContext } from '../../tenancy/acting-context.ts';
import { forgetHooks } from './receive-webhook.ts';

/**
 * A brand's relay webhooks (issue 25): which relay posts its events to which address, and the
 * secret they are signed with. Brand context only (the relay account is the brand's, as consent
 * and the suppression list are). The secret is sealed (crypto/secret-box.ts) and never returned
 * nor audited: the answer shows only its last 4 characters, the audit entry only that it changed.
 */

interface TRow {
  id: string;
  provider: TRelayProvider;
  secret: string | null;
  topic_arn: string | null;
  /** A string from the driver. */
  updated_at: string | Date;
  last_event_at: string | Date | null;
}

function brandOf(ctx: TActingContext): string {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'webhook_brand_only');
  return ctx.host.id;
}

function providerOf(value: string): TRelayProvider {
  if (!(RELAY_PROVIDERS as readonly string[]).includes(value)) throw new AppError(404, 'webhook_provider_invalid');
  return value as TRelayProvider;
}

const hintOf = (rt: TRuntime, sealed: string | null): string | null => {
  if (!sealed) return null;
  const plain = openSecret(sealed, rt.config.dataEncryptionKey);
  return `…${plain.slice(-4)}`;
};

function view(rt: TRuntime, provider: TRelayProvider, row: TRow | undefined): TRelayWebhook {
  return {
    provider,
    id: row?.id ?? null,
    url: row ? `${rt.config.publicUrl.replace(/\/$/, '')}/v1/public/relay-webhooks/${provider}/${row.id}` : null,
    secretHint: hintOf(rt, row?.secret ?? null),
    topicArn: row?.topic_arn ?? null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
    lastEventAt: row?.last_event_at ? new Date(row.last_event_at).toISOString() : null,
    // SNS posts notifications only to a confirmed subscription: any message kept means it is.
    subscription: provider === 'ses' && row ? (row.last_event_at ? 'confirmed' : 'pending') : null,
  };
}

const rowsOf = (tx: TTx, brandId: string) =>
  selectRows<TRow>(
    tx,
    sql`select w.id, w.provider, w.secret, w.topic_arn, w.updated_at,
        (select max(e.received_at) from relay_webhook_events e where e.brand_id = w.brand_id and e.provider = w.provider) as last_event_at
      from relay_webhooks w where w.brand_id = ${brandId}::uuid`,
  );

export function listRelayWebhooks(rt: TRuntime, ctx: TActingContext): Promise<TRelayWebhook[]> {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const rows = await rowsOf(tx, brandId);
    return RELAY_PROVIDERS.map((p) =>
      view(
        rt,
        p,
        rows.find((r) => r.provider === p),
      ),
    );
  });
}

/** A SendGrid verification key must be an EC public key (base64 SPKI, or PEM). */
function checkSecret(provider: TRelayProvider, secret: string): void {
  if (provider !== 'sendgrid') return;
  try {
    const key = secret.includes('BEGIN')
      ? createPublicKey(secret)
      : createPublicKey({ key: Buffer.from(secret, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ec') throw new Error('not an EC key');
  } catch {
    throw new AppError(400, 'validation_failed', { secret: fieldError('webhook_secret_required') });
  }
}

export function saveRelayWebhook(
  rt: TRuntime,
  ctx: TActingContext,
  providerName: string,
  input: TRelayWebhookInput,
): Promise<TRelayWebhook> {
  const brandId = brandOf(ctx);
  const provider = providerOf(providerName);
  const secret = input.secret ?? null;
  if (secret) checkSecret(provider, secret);
  return inTenant(rt, ctx, async (tx) => {
    const [before] = (await rowsOf(tx, brandId)).filter((r) => r.provider === provider);
    if (provider !== 'ses' && !secret && !before?.secret)
      throw new AppError(400, 'validation_failed', { secret: fieldError('webhook_secret_required') });
    const sealed = secret ? sealSecret(secret, rt.config.dataEncryptionKey) : (before?.secret ?? null);
    const topicArn = provider === 'ses' ? (input.topicArn ?? null) : null;
    const [row] = await selectRows<TRow>(
      tx,
      sql`insert into relay_webhooks (brand_id, provider, secret, topic_arn) values (${brandId}::uuid, ${provider}, ${sealed}, ${topicArn})
        on conflict (brand_id, provider) do update set secret = excluded.secret, topic_arn = excluded.topic_arn, updated_at = now()
        returning id, provider, secret, topic_arn, updated_at,
          (select max(e.received_at) from relay_webhook_events e where e.brand_id = ${brandId}::uuid and e.provider = ${provider}) as last_event_at`,
    );
    const changes: Record<string, unknown> = { provider };
    if (!before) changes.created = true;
    if (secret) changes.secret = 'changed';
    if ((before?.topic_arn ?? null) !== topicArn) changes.topicArn = [before?.topic_arn ?? null, topicArn];
    await recordAudit(tx, ctx, {
      action: before ? 'update' : 'create',
      targetType: 'relay_webhook',
      targetId: (row as TRow).id,
      brandId,
      changes,
    });
    return view(rt, provider, row);
  }).finally(forgetHooks);
}

export function deleteRelayWebhook(
  rt: TRuntime,
  ctx: TActingContext,
  providerName: string,
): Promise<{ deleted: boolean }> {
  const brandId = brandOf(ctx);
  const provider = providerOf(providerName);
  return inTenant(rt, ctx, async (tx) => {
    const [row] = await selectRows<{ id: string }>(
      tx,
      sql`delete from relay_webhooks where brand_id = ${brandId}::uuid and provider = ${provider} returning id`,
    );
    if (row)
      await recordAudit(tx, ctx, {
        action: 'delete',
        targetType: 'relay_webhook',
        targetId: row.id,
        brandId,
        changes: { provider },
      });
    return { deleted: !!row };
  }).finally(forgetHooks);
}
