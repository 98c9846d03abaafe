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
import { mapHeaders } from './columns.ts';
import { CsvReader, guessDelimiter } from './csv-reader.ts';
import { EncodingSniffer, textDecoder, type TEncoding } from './encoding.ts';
import { toImport } from './import-operations.ts';
import { isBlankRecord } from './normalize-row.ts';
import { findImport, insertImport } from './queries.ts';
import { importDirectory, importFilePath } from './review-import.ts';

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
 * Step one: the file streams to DATA_DIR (never into memory), refused at the size limit; its
 * encoding is told from its bytes and its header mapped to customer fields. A file that cannot
 * be imported at all is refused here with the reason; otherwise its review starts as a job.
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
  const refuse = async (status: number, code: TErrorCode, fields?: TFieldErrors) => {
    await rm(path, { force: true });
    return new AppError(status, code, fields ?? { file: fieldError(code) });
  };
  try {
    await pipeline(
      file.file,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sniffer.write(chunk);
          done(null, chunk);
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
  const created = await inTenant(rt, ctx, async (tx) => {
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
  await rt.queue.send(QUEUES.reviewImport, { importId: id });
  return toImport(created as NonNullable<typeof created>);
}
