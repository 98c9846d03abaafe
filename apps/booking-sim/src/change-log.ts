/**
 * Every version of every record, ordered by (updated_at, id). Keeping old versions is what lets
 * a paginated read be a true snapshot: a page read after the clock moved on still answers with
 * the records as they were at the snapshot time (`as_of`), so a client walking the pages sees
 * every record that changed in (updated_since, as_of] exactly once, however slowly it walks.
 * Changes after `as_of` are for the next sync, which starts from `updated_since = as_of`.
 */
export interface TVersion<T> {
  readonly record: T;
  /** updated_at, in epoch milliseconds. */
  readonly at: number;
  readonly id: string;
  /** When the next version of the same record was written; Infinity while this one is current. */
  supersededAt: number;
}

export interface TLogPosition {
  at: number;
  id: string;
}

export interface TLogPageQuery {
  /** Only versions written strictly after this instant; null for everything. */
  since: number | null;
  /** The snapshot instant: the version of each record current at this instant is the one served. */
  asOf: number;
  /** Keyset position of the last item already served. */
  after: TLogPosition | null;
  limit: number;
}

export interface TLogPage<T> {
  items: T[];
  /** Position of the last item, to continue from; null when the page is empty. */
  last: TLogPosition | null;
  hasMore: boolean;
}

function compare(a: TLogPosition, b: TLogPosition): number {
  if (a.at !== b.at) return a.at - b.at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class ChangeLog<T> {
  private readonly entries: TVersion<T>[] = [];
  private readonly versionsById = new Map<string, TVersion<T>[]>();

  get size(): number {
    return this.versionsById.size;
  }

  get versionCount(): number {
    return this.entries.length;
  }

  /** The latest version of a record. */
  latest(id: string): T | undefined {
    return this.latestVersion(id)?.record;
  }

  /** The version of a record current at `asOf`, or undefined if it did not exist yet. */
  asOf(id: string, asOf: number): T | undefined {
    const versions = this.versionsById.get(id);
    if (!versions) return undefined;
    for (let i = versions.length - 1; i >= 0; i -= 1) {
      const version = versions[i] as TVersion<T>;
      if (version.at <= asOf) return version.record;
    }
    return undefined;
  }

  /** Every record as it is now, in (updated_at, id) order. */
  currentRecords(): T[] {
    return this.entries.filter((e) => e.supersededAt === Infinity).map((e) => e.record);
  }

  /**
   * The earliest instant a new version of `id` may carry: its own `at`, or one millisecond
   * after the previous version, so that a record's versions are strictly ordered in time.
   */
  versionTime(id: string, at: number): number {
    const previous = this.latestVersion(id);
    return previous && previous.at >= at ? previous.at + 1 : at;
  }

  /** Appends a version. `at` must come from `versionTime`. */
  write(id: string, at: number, record: T): void {
    const previous = this.latestVersion(id);
    if (previous && previous.at >= at) throw new Error(`version of ${id} at ${at} is not after ${previous.at}`);
    const version: TVersion<T> = { record, at, id, supersededAt: Infinity };
    if (previous) previous.supersededAt = at;
    const versions = this.versionsById.get(id);
    if (versions) versions.push(version);
    else this.versionsById.set(id, [version]);
    const tail = this.entries[this.entries.length - 1];
    // Writes arrive in time order almost always; an out-of-order one is slotted in its place.
    if (!tail || compare(tail, version) < 0) this.entries.push(version);
    else this.entries.splice(this.firstAfter(version), 0, version);
  }

  page(query: TLogPageQuery): TLogPage<T> {
    const start = query.after
      ? this.firstAfter(query.after)
      : query.since === null
        ? 0
        : this.firstAfter({ at: query.since, id: '\uffff' });
    const items: T[] = [];
    let last: TLogPosition | null = null;
    for (let i = start; i < this.entries.length; i += 1) {
      const entry = this.entries[i] as TVersion<T>;
      if (entry.at > query.asOf) break;
      if (query.since !== null && entry.at <= query.since) continue;
      if (entry.supersededAt <= query.asOf) continue;
      if (items.length === query.limit) return { items, last, hasMore: true };
      items.push(entry.record);
      last = { at: entry.at, id: entry.id };
    }
    return { items, last, hasMore: false };
  }

  private latestVersion(id: string): TVersion<T> | undefined {
    const versions = this.versionsById.get(id);
    return versions?.[versions.length - 1];
  }

  /** Index of the first entry strictly after `position`. */
  private firstAfter(position: TLogPosition): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(this.entries[mid] as TVersion<T>, position) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
