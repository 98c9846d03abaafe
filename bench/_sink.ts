/**
 * The embedded SMTP sink as its own process, for the send bench: a stand-in for a remote relay, so
 * it does not share the sender's event loop and core (a real relay never does). It stores every
 * message in the given database as the embedded one does (group-commit inserts into dev_outbox,
 * "250" only once committed), prints `port=<n>` once it listens, and stops on SIGTERM.
 *
 *   tsx bench/_sink.ts <database url>
 */
import { openDatabase } from '../apps/server/src/db/client.ts';
import { startSmtpSink } from '../apps/server/src/mail/smtp-sink.ts';

const url = process.argv[2];
if (!url) throw new Error('usage: tsx bench/_sink.ts <database url>');
const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp/yado-bench-sink' });
const sink = await startSmtpSink(database.db, () => undefined);
process.stdout.write(`port=${sink.port}\n`);
process.once('SIGTERM', () => {
  // A sender's pooled connection left open would hold close() up: at most a second.
  setTimeout(() => process.exit(0), 1000).unref();
  void sink
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
