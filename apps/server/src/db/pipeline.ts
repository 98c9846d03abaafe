import { createHash } from 'node:crypto';
import type pg from 'pg';

/** One statement of a pipeline: text with $n parameters, and their values. */
export interface TStatement {
  sql: string;
  params: unknown[];
}

/** Rows as arrays in the order of the select list, parsed by `types`. */
export type TPipelineResult = unknown[][];

interface TWire {
  stream: { cork(): void; uncork(): void };
  on(event: 'parseComplete', listener: () => void): void;
  off(event: 'parseComplete', listener: () => void): void;
  parsedStatements: Record<string, string>;
  parse(query: { text: string; name: string }): void;
  bind(config: { statement: string; values: unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  sync(): void;
}
interface TFieldDescription {
  dataTypeID: number;
}

/**
 * The name a statement is prepared under on a connection: derived from its text, so one text is
 * prepared once per connection whoever sends it (the pipeline, queryPrepared in client.ts).
 * Remembered by text: the hot statements are the same few texts a thousand times a second (a
 * relay's webhooks), and hashing each anew was a hash object and a digest per statement. The texts
 * are the code's own, a few hundred; the memory starts afresh once the texts it holds come to
 * MAX_HELD characters (a bulk statement's text may be long).
 */
const names = new Map<string, string>();
const MAX_HELD = 4_000_000;
let held = 0;
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `y${createHash('sha1').update(text).digest('base64url')}`;
    if (held + text.length > MAX_HELD) {
      names.clear();
      held = 0;
    }
    names.set(text, name);
    held += text.length;
  }
  return name;
}

/**
 * Statements sent in one write and answered after one Sync: one round trip, one implicit
 * transaction (settings made with set_config(..., true) last until its end), and each statement
 * prepared once per connection under a name derived from its text, so PostgreSQL plans it from
 * its plan cache rather than anew. A pg "submittable", the extension point pg-cursor uses. Inside
 * an open transaction (pipelineIn, client.ts) the Sync ends no transaction: the statements are
 * just that transaction's next ones, each seeing what the ones before it did.
 *
 * A statement is known to its connection as prepared once PostgreSQL said it parsed it
 * (ParseComplete, in the order the Parses went): on an error PostgreSQL skips the rest up to the
 * Sync, and those parsed before it stay prepared, so the connection can go on being used. A text
 * repeated within one pipeline is parsed once.
 */
class Pipeline {
  private readonly results: TPipelineResult[] = [];
  private parsers: ((raw: string) => unknown)[] = [];
  private index = 0;
  private failed = false;
  readonly done: Promise<TPipelineResult[]>;
  private resolve!: (results: TPipelineResult[]) => void;
  private reject!: (error: Error) => void;
  private readonly names: string[];
  /** The Parses sent and not yet answered, in order. */
  private readonly parsing: { name: string; text: string }[] = [];
  private connection: TWire | null = null;
  private readonly parsed = (): void => {
    const statement = this.parsing.shift();
    if (statement && this.connection) this.connection.parsedStatements[statement.name] = statement.text;
  };

  constructor(
    private readonly statements: TStatement[],
    private readonly parserOf: (oid: number) => (raw: string) => unknown,
    private readonly prepareValue: (value: unknown) => unknown,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.names = statements.map((s) => statementName(s.sql));
  }

  submit(connection: TWire): null {
    this.connection = connection;
    connection.on('parseComplete', this.parsed);
    connection.stream.cork();
    try {
      this.statements.forEach((statement, i) => {
        const name = this.names[i] as string;
        if (connection.parsedStatements[name] === undefined && !this.parsing.some((p) => p.name === name)) {
          connection.parse({ text: statement.sql, name });
          this.parsing.push({ name, text: statement.sql });
        }
        connection.bind({ statement: name, values: statement.params, valueMapper: this.prepareValue });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  handleRowDescription(message: { fields: TFieldDescription[] }): void {
    this.parsers = message.fields.map((f) => this.parserOf(f.dataTypeID));
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const row = message.fields.map((raw, i) =>
      raw === null ? null : (this.parsers[i] as (raw: string) => unknown)(raw),
    );
    (this.results[this.index] ??= []).push(row);
  }

  handleCommandComplete(): void {
    this.results[this.index] ??= [];
    this.index++;
  }

  handleEmptyQuery(): void {
    this.results[this.index++] = [];
  }

  handlePortalSuspended(): void {}

  handleError(error: Error): void {
    // pg hands an error to the active query and then forgets it: no ReadyForQuery follows here.
    this.failed = true;
    this.stopListening();
    this.reject(error);
  }

  handleReadyForQuery(): void {
    this.stopListening();
    if (!this.failed) this.resolve(this.results);
  }

  private stopListening(): void {
    this.connection?.off('parseComplete', this.parsed);
  }
}

/** Runs `statements` on `client` as one round trip and one implicit transaction. */
export function runPipeline(
  client: pg.PoolClient,
  statements: TStatement[],
  parserOf: (oid: number) => (raw: string) => unknown,
  prepareValue: (value: unknown) => unknown,
): Promise<TPipelineResult[]> {
  const pipeline = new Pipeline(statements, parserOf, prepareValue);
  client.query(pipeline as unknown as pg.Submittable);
  return pipeline.done;
}
