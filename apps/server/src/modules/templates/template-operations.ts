import {
  emptyDocument,
  type TTemplate,
  type TTemplateContents,
  type TTemplateLanguage,
  type TPreview,
  templatesApi,
} from '@yado/contracts';
import { sendEachTest } from '../../mail/refused-address.ts';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };
import { defaultCopyName } from '../../i18n/copy-name.ts';
import { AppError, badRequest, fieldError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { selectRows, type TTx } from '../../db/client.ts';
import { recordAudit, type TAuditEvent } from '../audit/record-audit.ts';
import { assertNotThrottled, recordAttempt } from '../auth/throttle.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import {
  deleteTemplate,
  findTemplate,
  guestData,
  insertTemplate,
  listTemplates,
  listUses,
  unfinishedUses,
  toSummary,
  updateTemplate,
  type TTemplateFilter,
  type TTemplateRecord,
  type TTemplateValues,
} from './queries.ts';
import { compileMessage, personalise, type TPersonalValues } from './render/compile.ts';
import { personalValues } from './render/personal-values.ts';
import { chooseLanguage, compiledTemplate, warningsFor } from './render-template.ts';
import { campaignSummaries } from '../tracking/queries.ts';
import { hostTimeZone } from '../management/queries.ts';
import { FALLBACK_TIME_ZONE } from '../customers/local-time.ts';

/** The template operations of the console (specification section 2, Templates). */

const TEXTS = { ja: ja.templates, en: en.templates } as const;

const toTemplate = (r: TTemplateRecord, ctx: TActingContext): TTemplate => ({
  ...toSummary(r, ctx),
  contents: r.contents,
});

async function mustFind(tx: TTx, ctx: TActingContext, id: string): Promise<TTemplateRecord> {
  const found = await findTemplate(tx, ctx, id);
  if (!found) throw new AppError(404, 'not_found');
  return found;
}

/** A template the acting host may change: its own. A brand's seen from below is read-only. */
async function mustOwn(tx: TTx, ctx: TActingContext, id: string): Promise<TTemplateRecord> {
  const found = await mustFind(tx, ctx, id);
  if (found.hostId !== ctx.host.id) throw new AppError(403, 'template_read_only');
  return found;
}

/** An audit entry of a template, with its name as it was then (the log outlives a rename or delete). */
const auditTemplate = (
  tx: TTx,
  ctx: TActingContext,
  t: { id: string; brandId: string | null; name: string },
  action: TAuditEvent['action'],
  changes: Record<string, unknown> = {},
) =>
  recordAudit(tx, ctx, {
    action,
    targetType: 'template',
    targetId: t.id,
    brandId: t.brandId,
    changes: { name: t.name, ...changes },
  });

/**
 * The editor saves every few seconds while someone types; the audit log wants "edited the
 * template", not each keystroke's save. So an edit is recorded once per person and template within
 * this many minutes (the first save of a sitting); a rename or a new default language always is.
 */
export const TEMPLATE_EDIT_AUDIT_MINUTES = 15;

async function editedLately(tx: TTx, ctx: TActingContext, id: string): Promise<boolean> {
  const rows = await selectRows(
    tx,
    sql`select 1 from audit_log where target_type = 'template' and target_id = ${id} and action = 'update'
    and actor_user_id = ${ctx.user.id} and at > now() - make_interval(mins => ${TEMPLATE_EDIT_AUDIT_MINUTES}) limit 1`,
  );
  return rows.length > 0;
}

function requireDefaultVersion(contents: TTemplateContents, defaultLanguage: TTemplateLanguage): void {
  if (!contents[defaultLanguage])
    throw badRequest({ defaultLanguage: fieldError('template_default_language_missing') });
}

export async function listTemplatesFor(rt: TRuntime, ctx: TActingContext, filter: TTemplateFilter) {
  const { items, total } = await inTenant(rt, ctx, (tx) => listTemplates(tx, ctx, filter));
  return {
    items: items.map((r) => ({ ...toSummary(r, ctx), timeZone: r.hostTimeZone })),
    total,
    page: filter.page,
    pageSize: filter.pageSize,
  };
}

export async function getTemplate(rt: TRuntime, ctx: TActingContext, id: string): Promise<TTemplate> {
  return inTenant(rt, ctx, async (tx) => toTemplate(await mustFind(tx, ctx, id), ctx));
}

export async function createTemplate(
  rt: TRuntime,
  ctx: TActingContext,
  input: z.infer<typeof templatesApi.ZCreateTemplate>,
): Promise<TTemplate> {
  const contents: TTemplateContents = input.contents ?? {
    [input.defaultLanguage]: { subject: '', preheader: '', document: emptyDocument() },
  };
  requireDefaultVersion(contents, input.defaultLanguage);
  return inTenant(rt, ctx, async (tx) => {
    const id = await insertTemplate(tx, ctx, {
      name: input.name,
      description: input.description,
      defaultLanguage: input.defaultLanguage,
      contents: { ja: contents.ja ?? null, en: contents.en ?? null },
      coverImageUrl: input.coverImageUrl ?? null,
    });
    const created = await mustFind(tx, ctx, id);
    await auditTemplate(tx, ctx, created, 'create');
    return toTemplate(created, ctx);
  });
}

/**
 * Autosave: the changes apply only over the version the editor saw. A stale version is refused
 * with the stored one, so the editor can tell the user instead of overwriting newer work.
 */
export async function saveTemplate(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  input: z.infer<typeof templatesApi.ZUpdateTemplate>,
): Promise<TTemplate> {
  return inTenant(rt, ctx, async (tx) => {
    const current = await mustOwn(tx, ctx, id);
    const values: Partial<TTemplateValues> = {};
    if (input.name !== undefined) values.name = input.name;
    if (input.description !== undefined) values.description = input.description;
    if (input.defaultLanguage !== undefined) values.defaultLanguage = input.defaultLanguage;
    if (input.contents !== undefined)
      values.contents = { ja: input.contents.ja ?? null, en: input.contents.en ?? null };
    if (input.coverImageUrl !== undefined) values.coverImageUrl = input.coverImageUrl ?? null;
    requireDefaultVersion(values.contents ?? current.contents, values.defaultLanguage ?? current.defaultLanguage);
    const saved = await updateTemplate(tx, ctx, id, input.version, values);
    if (saved === null)
      throw new AppError(409, 'template_stale', undefined, undefined, { version: String(current.version) });
    const fields = (['description', 'defaultLanguage', 'contents', 'coverImageUrl'] as const).filter(
      (k) => values[k] !== undefined && JSON.stringify(values[k]) !== JSON.stringify(current[k]),
    );
    const renamed = values.name !== undefined && values.name !== current.name;
    if (renamed || fields.includes('defaultLanguage')) {
      await auditTemplate(tx, ctx, current, 'update', {
        ...(renamed ? { name: [current.name, values.name] } : {}),
        ...(fields.length ? { fields } : {}),
      });
    } else if (fields.length && !(await editedLately(tx, ctx, id))) {
      await auditTemplate(tx, ctx, current, 'update', { fields });
    }
    return toTemplate(await mustFind(tx, ctx, id), ctx);
  });
}

/**
 * A copy owned by the acting host, whoever owned the original (a brand's becomes the hotel's); its
 * default name is in the console's language (else the profile's).
 */
export async function duplicateTemplate(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  { name, language = ctx.user.language }: { name?: string; language?: 'ja' | 'en' } = {},
): Promise<TTemplate> {
  return inTenant(rt, ctx, async (tx) => {
    const source = await mustFind(tx, ctx, id);
    const copyName = name ?? defaultCopyName(source.name, language, 200);
    const newId = await insertTemplate(tx, ctx, {
      name: copyName,
      description: source.description,
      defaultLanguage: source.defaultLanguage,
      contents: source.contents,
      coverImageUrl: source.coverImageUrl,
    });
    const copy = await mustFind(tx, ctx, newId);
    await auditTemplate(tx, ctx, copy, 'duplicate', { copyOf: source.name });
    return toTemplate(copy, ctx);
  });
}

/**
 * Refused while a campaign that has not finished uses the template, naming every such campaign
 * (`campaigns`; `campaign` is the first, for the one-campaign text): the use is held from
 * scheduling through sending and pausing (written `scheduled`) until it is sent or cancelled, so
 * the text says "not finished", never "scheduled".
 */
export async function removeTemplate(rt: TRuntime, ctx: TActingContext, id: string): Promise<{ id: string }> {
  return inTenant(rt, ctx, async (tx) => {
    const template = await mustOwn(tx, ctx, id);
    const campaigns = await unfinishedUses(tx, id);
    if (campaigns.length > 0) {
      throw new AppError(409, 'template_in_use', undefined, undefined, { campaign: campaigns[0]!, campaigns });
    }
    await deleteTemplate(tx, ctx, id);
    await auditTemplate(tx, ctx, template, 'delete');
    return { id };
  });
}

async function valuesFor(
  tx: TTx,
  ctx: TActingContext,
  customerId: string | undefined,
  language: TTemplateLanguage,
): Promise<TPersonalValues> {
  if (!customerId) return {};
  const guest = await guestData(tx, ctx, customerId);
  if (!guest) throw new AppError(404, 'not_found');
  return personalValues(guest, language);
}

/**
 * The template as it is sent, in one language (else the default one), personalised with a
 * customer's data or the tags' fallbacks: the same compile and personalise a campaign uses.
 */
export async function previewTemplate(
  rt: TRuntime,
  ctx: TActingContext,
  imageUrl: (src: string) => string,
  id: string,
  input: z.infer<typeof templatesApi.ZPreviewRequest>,
): Promise<TPreview> {
  const { template, values } = await inTenant(rt, ctx, async (tx) => {
    const found = await mustFind(tx, ctx, id);
    const language = input.contents ? input.language : chooseLanguage(found, input.language);
    return { template: found, values: await valuesFor(tx, ctx, input.customerId, language) };
  });
  const compiled = input.contents
    ? await compileMessage(input.contents, input.language, imageUrl)
    : await compiledTemplate(template, input.language, imageUrl);
  const message = personalise(compiled, values);
  return {
    language: compiled.language,
    subject: message.subject,
    preheader: (input.contents ?? template.contents[compiled.language])?.preheader ?? '',
    html: message.html,
    text: message.text,
    htmlBytes: Buffer.byteLength(message.html),
    warnings: warningsFor(compiled, input.language),
  };
}

/** Test mails a user may send per 15 minutes: enough to check a template, too few to spam with. */
export const MAX_TEST_MAILS_PER_USER = 30;
export const testSendKey = (userId: string) => `template_test:user:${userId}`;

/** Sends the template as a guest would receive it, to up to five addresses, one mail each. */
export async function testSendTemplate(
  rt: TRuntime,
  ctx: TActingContext,
  imageUrl: (src: string) => string,
  id: string,
  input: z.infer<typeof templatesApi.ZTestSend>,
): Promise<{ sent: number }> {
  const { template, values } = await inTenant(rt, ctx, async (tx) => {
    const found = await mustFind(tx, ctx, id);
    return {
      template: found,
      values: await valuesFor(tx, ctx, input.customerId, chooseLanguage(found, input.language)),
    };
  });
  const compiled = await compiledTemplate(template, input.language, imageUrl);
  const message = personalise(compiled, values);
  const subject = `${TEXTS[compiled.language].test_subject_prefix}${message.subject || template.name}`;
  const recipients = [...new Set(input.emails.map((e) => e.toLowerCase()))];
  // The attempts table is the owner's (as for sign-in), outside any tenant.
  const throttle = testSendKey(ctx.user.id);
  await assertNotThrottled(rt.database.db, [{ key: throttle, max: MAX_TEST_MAILS_PER_USER - recipients.length + 1 }]);
  await recordAttempt(
    rt.database.db,
    recipients.map(() => throttle),
  );
  return sendEachTest(
    recipients,
    (to) => rt.mailer.sendMail({ from: rt.config.mailFrom, to, subject, html: message.html, text: message.text }),
    (error) =>
      rt.log.warn(
        { code: (error as { code?: string }).code, responseCode: (error as { responseCode?: number }).responseCode },
        'template test send failed',
      ),
  );
}

/**
 * The campaigns that used the template, as the acting host reads them on the campaign list (a
 * hotel sees no other hotel's campaign, and a brand's campaign with its own guests' figures only),
 * with their statistics from the tracking rollups (null for a campaign not sent yet). Opened and
 * clicked are unique counts; times are shown in the acting host's zone.
 */
export async function templateReport(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
): Promise<z.infer<typeof templatesApi.ZTemplateReport>> {
  return inTenant(rt, ctx, async (tx) => {
    await mustFind(tx, ctx, id);
    const uses = await listUses(tx, id);
    const summaries = await campaignSummaries(
      tx,
      ctx,
      uses.map((u) => u.campaignId),
    );
    return {
      timeZone: (await hostTimeZone(tx, ctx.host.id)) ?? FALLBACK_TIME_ZONE,
      campaigns: uses.flatMap((u) => {
        const s = summaries.get(u.campaignId);
        if (!s) return [];
        const sent = s.sentAt ? new Date(s.sentAt).toISOString() : null;
        return [
          {
            campaignId: u.campaignId,
            campaignName: u.campaignName,
            status: s.status,
            paused: s.paused,
            sentAt: sent,
            recipients: s.audience,
            delivered: sent ? s.delivered : null,
            opened: sent ? s.uniqueOpens : null,
            clicked: sent ? s.uniqueClicks : null,
          },
        ];
      }),
    };
  });
}
