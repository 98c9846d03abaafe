import type { TAuditEntry } from '@yado/contracts/settings';
import type { TFunction } from 'i18next';

/**
 * The audit log in plain words: what happened to what, and each change as "field: before → after".
 * Codes the console does not know yet (a newer server) fall back to the code itself, never to an
 * empty line or raw JSON.
 */
const KNOWN_ACTIONS = [
  'create',
  'update',
  'delete',
  'status_change',
  'invite',
  'remove_role',
  'add_to_group',
  'remove_from_group',
  'email_status_change',
  'verify',
  'connect',
  'disconnect',
  'guest_unsubscribe',
  'guest_resubscribe',
  'duplicate',
  'schedule',
  'send_now',
  'unschedule',
  'cancel',
  'pause',
  'run',
  'stop',
  'restart',
  'resume',
  'restore',
  'copy',
  'archive',
  'lift',
  'pick_winner',
  'decide_winner',
];
const HOST_TYPES = ['brand', 'hotel_group', 'hotel'];
/** Targets whose entries carry the name they had then (`name`, or `[before, after]` when renamed). */
const NAMED_TYPES = ['campaign', 'template', 'scenario', 'preset', 'segment'];
/** Values that are links to images: shown as "replaced", not as addresses. */
const HIDDEN_VALUES = ['logoUrl'];
/** Keys whose values are host ids, named through `entry.hostNames`. */
const HOST_ID_KEYS = ['hotelGroupId', 'hotelId'];
/** Keys whose values are ids of campaigns, templates, segments, scenarios, presets or guests, named through `entry.objectNames`. */
const OBJECT_ID_KEYS = [
  'campaignId',
  'templateId',
  'segmentId',
  'segmentIds',
  'excludeSegmentIds',
  'scenarioId',
  'presetId',
  'customerId',
];
/**
 * Keys the sentence or another line already says (a name unless it changed; `created`, a relay
 * webhook set up for the first time, is the action "Created").
 */
const SKIPPED_KEYS = ['ids', 'deletedHostIds', 'releasedHotelIds', 'fields', 'created'];
/** Values that are codes, shown by their text in `audit.values` as `<key>_<code>` (how: significant). */
const CODED_KEYS = ['how', 'metric', 'provider'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPair = (value: unknown): value is [unknown, unknown] => Array.isArray(value) && value.length === 2;

/** Labels are keyed in snake_case (logoUrl → audit.fields.logo_url); an unknown field shows its code. */
function fieldLabel(key: string, t: TFunction): string {
  const textKey = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return /^[a-z0-9_]+$/.test(textKey) ? t(`audit.fields.${textKey}`, { defaultValue: key }) : key;
}

function valueText(key: string, value: unknown, entry: TAuditEntry, t: TFunction): string {
  if (value === null || value === undefined || value === '') return t('audit.none');
  if (HOST_ID_KEYS.includes(key) && typeof value === 'string') return entry.hostNames[value] ?? t('audit.unknown_host');
  // An id is never shown: what was deleted since reads "(deleted)".
  if (OBJECT_ID_KEYS.includes(key) && typeof value === 'string')
    return entry.objectNames?.[value] ?? t('audit.deleted_object');
  if (key === 'role' && typeof value === 'string') {
    const level = entry.actingHostLevel ?? 'hotel';
    return t(`roles.${level}.${value}`, { defaultValue: value });
  }
  if (
    (key === 'status' || key === 'emailStatus' || key === 'state' || key === 'source' || key === 'reason') &&
    typeof value === 'string'
  ) {
    return t(`audit.values.${value}`, { defaultValue: value });
  }
  // An A/B test's decision (issue 26): how its winner was chosen, and on what; a relay webhook's service.
  if (CODED_KEYS.includes(key) && typeof value === 'string')
    return t(`audit.values.${key}_${value}`, { defaultValue: value });
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => valueText(key, v, entry, t)).join(t('audit.separator'));
  return t('audit.details');
}

/** A customer import's entry (apply-import.ts): its file, counts, hotel, segment and consent choice. */
const IMPORT_TYPE = 'customer_import';

/**
 * A customer import's lines: the rows added, updated, unchanged and skipped, where the customers
 * went and how they agreed to email. Only the keys named here are shown, each in words: a key the
 * console does not know is left out rather than shown as a code.
 */
function describeImport(entry: TAuditEntry, changes: Record<string, unknown>, t: TFunction): string[] {
  const lines: string[] = [];
  const count = (key: string) => (typeof changes[key] === 'number' ? changes[key] : null);
  const line = (label: string, value: string) =>
    lines.push(t('audit.value', { field: t(`audit.import.${label}`), value }));
  const counted = (key: string, label = key) => {
    const n = count(key);
    if (n !== null) line(label, n.toLocaleString());
  };
  counted('inserted');
  counted('updated');
  counted('unchanged');
  const failed = count('failed');
  const duplicates = count('duplicates');
  if (failed !== null || duplicates !== null) {
    lines.push(
      t('audit.import.skipped', {
        count: ((failed ?? 0) + (duplicates ?? 0)).toLocaleString(),
        failed: (failed ?? 0).toLocaleString(),
        duplicates: (duplicates ?? 0).toLocaleString(),
      }),
    );
  }
  if (typeof changes.hotelId === 'string') {
    line('hotel', valueText('hotelId', changes.hotelId, entry, t));
    counted('allocated');
  }
  if (typeof changes.segmentId === 'string') {
    line('segment', valueText('segmentId', changes.segmentId, entry, t));
    counted('segmentAdded', 'segment_added');
  }
  const reception = changes.emailReception;
  if (typeof reception === 'string') {
    // A consent the console has no text for is "(details)", never its code.
    const unknown = t('audit.details');
    line(
      'email_reception',
      /^[a-z_]+$/.test(reception) ? t(`audit.import.receptions.${reception}`, { defaultValue: unknown }) : unknown,
    );
  }
  return lines;
}

/** "Updated hotel “さくらホテル 新宿”": the action and its target in one sentence. */
export function describeAction(entry: TAuditEntry, t: TFunction): string {
  if (entry.targetType === IMPORT_TYPE && entry.action === 'import') {
    const fileName = isRecord(entry.changes) ? entry.changes.fileName : null;
    return typeof fileName === 'string' && fileName
      ? t('audit.import.sentence', { name: fileName })
      : t('audit.import.sentence_unnamed');
  }
  const type = t(`audit.types.${entry.targetType}`, { defaultValue: entry.targetType });
  const changes = isRecord(entry.changes) ? entry.changes : {};
  const count = Array.isArray(changes.ids) ? changes.ids.length : 0;
  // A deleted host's name is kept in the entry; a current name is looked up when the log is read.
  const renamedTo = isPair(changes.name) && typeof changes.name[1] === 'string' ? changes.name[1] : null;
  const recordedName =
    typeof changes.name === 'string' &&
    (HOST_TYPES.includes(entry.targetType) || NAMED_TYPES.includes(entry.targetType))
      ? changes.name
      : renamedTo && NAMED_TYPES.includes(entry.targetType)
        ? renamedTo
        : typeof changes.domain === 'string' && entry.targetType === 'sending_domain'
          ? changes.domain
          : // A suppression is named by its address.
            typeof changes.email === 'string' && entry.targetType === 'suppression'
            ? changes.email
            : // A relay webhook by its service (SendGrid).
              typeof changes.provider === 'string' && entry.targetType === 'relay_webhook'
              ? valueText('provider', changes.provider, entry, t)
              : null;
  // A booking-system connection is named by its account id (DBK-100234), which is all it keeps.
  const accountId = entry.targetType === 'booking_connection' ? entry.targetId : null;
  // A campaign, template, segment, scenario or preset is named as it was named then (the entry keeps
  // it); the name looked up now serves entries that kept none.
  const name = NAMED_TYPES.includes(entry.targetType)
    ? (recordedName ?? entry.targetName ?? accountId)
    : (entry.targetName ?? recordedName ?? accountId);
  const target = count > 1 ? t('audit.customers', { count }) : name ? t('audit.target', { type, name }) : type;
  if (KNOWN_ACTIONS.includes(entry.action)) return t(`audit.actions.${entry.action}`, { target });
  return t('audit.actions.unknown', { action: entry.action, target });
}

/** One line per change, in the order recorded. */
export function describeChanges(entry: TAuditEntry, t: TFunction): string[] {
  if (!isRecord(entry.changes)) return [];
  const changes = entry.changes;
  if (entry.targetType === IMPORT_TYPE) return describeImport(entry, changes, t);
  const lines: string[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (SKIPPED_KEYS.includes(key) || (key === 'name' && !isPair(value))) continue;
    // A domain's name is in the sentence already.
    if (key === 'domain' && entry.targetType === 'sending_domain') continue;
    if (key === 'email' && entry.targetType === 'suppression') continue;
    if (key === 'provider' && entry.targetType === 'relay_webhook') continue;
    const field = fieldLabel(key, t);
    if (isPair(value)) {
      if (HIDDEN_VALUES.includes(key)) lines.push(t('audit.replaced', { field }));
      else {
        lines.push(
          t('audit.change', {
            field,
            before: valueText(key, value[0], entry, t),
            after: valueText(key, value[1], entry, t),
          }),
        );
      }
    } else if (HIDDEN_VALUES.includes(key)) {
      lines.push(t('audit.replaced', { field }));
    } else if (key === 'secret' && value === 'changed') {
      // A secret is never audited, only that it changed.
      lines.push(t('audit.changed', { field }));
    } else if (key === 'hotelGroupId' && (value === null || value === undefined)) {
      continue;
    } else if (key === 'records' && isRecord(value)) {
      // A verification's outcome per DNS record: "SPF: Correct, DKIM: Missing".
      const results = Object.entries(value).map(
        ([kind, result]) =>
          `${kind.toUpperCase()}: ${t(`audit.values.${String(result)}`, { defaultValue: String(result) })}`,
      );
      lines.push(t('audit.value', { field, value: results.join(t('audit.separator')) }));
    } else if (isRecord(value)) {
      lines.push(t('audit.changed', { field }));
    } else {
      lines.push(t('audit.value', { field, value: valueText(key, value, entry, t) }));
    }
  }
  if (Array.isArray(changes.fields) && changes.fields.length > 0) {
    const names = changes.fields.map((f) => fieldLabel(String(f), t));
    lines.push(t('audit.fields_changed', { fields: names.join(t('audit.separator')) }));
  }
  const hostList = (ids: unknown) =>
    (Array.isArray(ids) ? ids : [])
      .filter((id): id is string => typeof id === 'string' && id !== entry.targetId)
      .map((id) => entry.hostNames[id] ?? t('audit.unknown_host'));
  const along = hostList(changes.deletedHostIds);
  if (along.length > 0) lines.push(t('audit.deleted_along', { names: along.join(t('audit.separator')) }));
  const released = hostList(changes.releasedHotelIds);
  if (released.length > 0) lines.push(t('audit.released', { names: released.join(t('audit.separator')) }));
  return lines;
}

/** "Brand Admin, さくらホテルズ": the role and host the actor was acting as. */
export function describeActing(entry: TAuditEntry, t: TFunction): string {
  if (!entry.actingRole) return '-';
  const role = t(`roles.${entry.actingHostLevel ?? 'hotel'}.${entry.actingRole}`, { defaultValue: entry.actingRole });
  return entry.actingHostName ? t('audit.acting', { role, host: entry.actingHostName }) : role;
}
