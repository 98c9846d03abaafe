import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IMPORT_MAX_BYTES, type TCustomerImport, type TErrorCode } from '@yado/contracts';
import type { FastifyRequest } from 'fastify';
import { QUEUES } from '../../jobs/queue.ts';
import { AppError, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { findHost } from '../management/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { mapHeaders, type TColumn } from './columns.ts';
import { CsvError, CsvReader, guessDelimiter } from './csv-reader.ts';
import { EncodingSniffer, textDecoder, type TEncoding } from './encoding.ts';
import { toImport } from './import-operations.ts';
import { isBlankRecord } from './normalize-row.ts';
import { findImport, insertImport, type TReviewCounts } from './queries.ts';
import { importDirectory, importFilePath, type TReviewImportJob } from './review-import.ts';
import { ImportRejection, RowStager } from './row-stager.ts';
import { openStagingWriter } from './staging.ts';

const HEAD_BYTES = 64 * 1024;

/**
 * The hotel the imported customers are allocated to: the acting hotel; at a hotel group (and for
 * the platform) a hotel the caller chooses; at a brand a chosen hotel or none.
 */
async function targetHotel(
  rt: TRuntime,
  ctx: TActingContext,
  hotelId: string | undefined,
): Promise<{ hotelId: string | null; brandId: string }> {
  if (ctx.host.level === 'hotel') return { hotelId: ctx.host.id, brandId: ctx.host.brandId as string };
  if (!hotelId) {
    if (ctx.host.level === 'brand') return { hotelId: null, brandId: ctx.host.id };
    throw new AppError(400, 'import_hotel_required', { hotelId: fieldError('import_hotel_required') });
  }
  const hotel = await inTenant(rt, ctx, (tx) => findHost(tx, ctx, 'hotel', hotelId));
  if (!hotel) throw new AppError(400, 'import_hotel_required', { hotelId: fieldError('import_hotel_required') });
  return { hotelId: hotel.id, brandId: hotel.brandId as string };
}

/** The header row, read from the start of the file. */
async function readHeader(path: string, encoding: TEncoding): Promise<string[] | null> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    const decoder = textDecoder(encoding);
    const text = decoder.write(buffer.subarray(0, bytesRead)) + (bytesRead < HEAD_BYTES ? decoder.end() : '');
    const reader = new CsvReader(guessDelimiter(text.split(/[\r\n]/, 1)[0] ?? ''));
    let header: string[] | null = null;
    const take = (fields: string[]) => {
      if (!header && !isBlankRecord(fields)) header = fields;
    };
    try {
      reader.push(text, take);
      if (bytesRead < HEAD_BYTES) reader.end(take);
    } catch {
      // A broken row after the header is the review's to report, with its row number.
    }
    return header;
  } finally {
    await handle.close();
  }
}

/**
 * Reads the rows while the upload streams in (PostgreSQL), so that the review is done when the
 * upload is rather than a whole reading later. It reads in the encoding the first bytes point to,
 * with the columns its header maps to; when the finished upload says otherwise (a byte that is not
 * UTF-8 late in the file), or anything fails, it gives up and the review job reads the file as
 * before, which also reports a broken file with its row.
 */
/**
 * Uploads read as they stream in, per process. Each holds a pool connection (and a transaction)
 * for as long as its client takes to send the file, so beyond these the rest wait for the job.
 */
const MAX_READ_WHILE_UPLOADING = 2;
let readingWhileUploading = 0;

class ReviewWhileUploading {
  private stager: RowStager | null = null;
  private decoder: ReturnType<typeof textDecoder> | null = null;
  private encoding: TEncoding | null = null;
  private started = false;
  private stopped = true;

  constructor(
    private readonly rt: TRuntime,
    private readonly target: { id: string; brandId: string },
  ) {
    if (rt.database.kind !== 'postgres' || readingWhileUploading >= MAX_READ_WHILE_UPLOADING) return;
    readingWhileUploading++;
    this.stopped = false;
  }

  private done(): void {
    this.stopped = true;
    readingWhileUploading--;
  }

  /** The next bytes of the upload; never fails (a failure stops the reading here). */
  async write(chunk: Buffer, sniffer: EncodingSniffer): Promise<void> {
    if (this.stopped) return;
    try {
      if (!this.started) {
        this.started = true;
        this.encoding = sniffer.guess();
        if (!this.encoding) return await this.stop();
        this.decoder = textDecoder(this.encoding);
        this.stager = new RowStager(
          this.target,
          (header) => {
            const { columns, problems } = mapHeaders(header);
            return problems.missing.length || problems.duplicated.length ? null : columns;
          },
          await openStagingWriter(this.rt.database, this.target.id),
        );
      }
      await (this.stager as RowStager).write((this.decoder as ReturnType<typeof textDecoder>).write(chunk));
    } catch (error) {
      await this.stop(error);
    }
  }

  /** The counts when every row was read as the finished upload says to read it; null otherwise. */
  async finish(encoding: TEncoding, columns: TColumn[]): Promise<TReviewCounts | null> {
    const stager = this.stager;
    if (this.stopped) return null;
    if (
      !stager ||
      !this.decoder ||
      encoding !== this.encoding ||
      JSON.stringify(columns) !== JSON.stringify(stager.columns)
    ) {
      await this.stop();
      return null;
    }
    try {
      const counts = await stager.end((this.decoder as ReturnType<typeof textDecoder>).end());
      this.done();
      return counts;
    } catch (error) {
      await this.stop(error);
      return null;
    }
  }

  /** Gives up: no row read here stays. */
  async stop(error?: unknown): Promise<void> {
    if (this.stopped) return;
    this.done();
    // A file the review will refuse is no surprise; anything else is worth a line (codes only).
    if (error && !(error instanceof ImportRejection) && !(error instanceof CsvError))
      this.rt.log.warn(
        { importId: this.target.id, dbCode: (error as { code?: string }).code },
        'customer import: reading during the upload failed, the review job reads the file',
      );
    await this.stager?.abort().catch(() => undefined);
    this.stager = null;
  }
}

/**
 * Step one: the file streams to DATA_DIR (never into memory), refused at the size limit; its
 * encoding is told from its bytes and its header mapped to customer fields. A file that cannot
 * be imported at all is refused here with the reason; otherwise its review ends in a job (which
 * reads the file only when the rows could not be read as they streamed in).
 */
export async function uploadImport(
  rt: TRuntime,
  ctx: TActingContext,
  request: FastifyRequest,
  hotelId: string | undefined,
): Promise<TCustomerImport> {
  const target = await targetHotel(rt, ctx, hotelId);
  if (!request.isMultipart())
    throw new AppError(400, 'import_file_required', { file: fieldError('import_file_required') });
  const file = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
  if (!file) throw new AppError(400, 'import_file_required', { file: fieldError('import_file_required') });
  const id = randomUUID();
  await mkdir(importDirectory(rt.config.dataDir), { recursive: true });
  const path = importFilePath(rt.config.dataDir, id);
  const sniffer = new EncodingSniffer();
  const review = new ReviewWhileUploading(rt, { id, brandId: target.brandId });
  const refuse = async (status: number, code: TErrorCode, fields?: TFieldErrors) => {
    await review.stop();
    await rm(path, { force: true });
    return new AppError(status, code, fields ?? { file: fieldError(code) });
  };
  try {
    await pipeline(
      file.file,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sniffer.write(chunk);
          void review.write(chunk, sniffer).then(() => done(null, chunk));
        },
      }),
      createWriteStream(path),
    );
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw await refuse(413, 'import_file_too_big');
    throw await refuse(400, 'upload_failed');
  }
  if (file.file.truncated) throw await refuse(413, 'import_file_too_big');
  if (sniffer.bytes === 0) throw await refuse(400, 'import_file_empty');
  const encoding = sniffer.result();
  if (!encoding) throw await refuse(400, 'import_unsupported_encoding');
  const header = await readHeader(path, encoding);
  if (!header) throw await refuse(400, 'import_file_empty');
  const { columns, problems } = mapHeaders(header);
  if (problems.missing.length || problems.duplicated.length) {
    const fields: TFieldErrors = {};
    for (const f of problems.missing) fields[f] = fieldError('import_missing_column');
    for (const f of problems.duplicated) fields[f] = fieldError('import_duplicate_column');
    throw await refuse(400, problems.missing.length ? 'import_missing_columns' : 'import_duplicate_column', fields);
  }
  const fileName = (file.filename || 'customers.csv').slice(0, 200);
  let created;
  try {
    created = await inTenant(rt, ctx, async (tx) => {
      await insertImport(tx, {
        id,
        brandId: target.brandId,
        hostId: ctx.host.id,
        hotelId: target.hotelId,
        createdBy: ctx.user.id,
        fileName,
        fileSize: sniffer.bytes,
        encoding,
        columns,
      });
      return findImport(tx, id, ctx.host.id);
    });
  } catch (error) {
    await review.stop();
    throw error;
  }
  // Read and counted as it streamed in: the review job only has to say so. Otherwise it reads the file.
  const counts = await review.finish(encoding, columns);
  const job: TReviewImportJob = counts ? { importId: id, counts } : { importId: id };
  await rt.queue.send(QUEUES.reviewImport, job);
  return toImport(created as NonNullable<typeof created>);
}
