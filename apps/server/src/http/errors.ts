import {
  ENGLISH_NAME_LIST,
  ERROR_MESSAGES,
  ERROR_MESSAGES_MANY,
  FILTER_FAULTS,
  nameList,
  type TErrorCode,
} from '@yado/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { issueCode, type TZodIssue } from './issue-code.ts';

export type TFieldErrors = Record<string, { code: string; message: string }>;

/** A failure with a stable code: one error handler turns it into `{ error: { code, message } }`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: TErrorCode,
    readonly fields?: TFieldErrors,
    readonly headers?: Record<string, string>,
    /**
     * Values the message names, filled into its `{{name}}` places (as i18next writes them) and sent
     * as `params`: a string, or a list of names (written as nameList writes it); a list of more
     * than one name takes the code's ERROR_MESSAGES_MANY text.
     */
    readonly params?: Record<string, string | string[]>,
  ) {
    super(params ? filled(code, params) : ERROR_MESSAGES[code]);
  }
}

function filled(code: TErrorCode, params: Record<string, string | string[]>): string {
  const many = Object.values(params).some((value) => Array.isArray(value) && value.length > 1);
  const text = (many && ERROR_MESSAGES_MANY[code]) || ERROR_MESSAGES[code];
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'string' ? value : nameList(value, ENGLISH_NAME_LIST);
  });
}

export const fieldError = (code: TErrorCode) => ({ code, message: ERROR_MESSAGES[code] });

export const badRequest = (fields: TFieldErrors) => new AppError(400, 'validation_failed', fields);

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send({
        error: {
          code: error.code,
          message: error.message,
          ...(error.fields ? { fields: error.fields } : {}),
          ...(error.params ? { params: error.params } : {}),
        },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: TFieldErrors = {};
      /** Each field's first issue as zod wrote it: a filter's message is its fault's kind. */
      const issues = new Map<string, TZodIssue>();
      for (const v of error.validation) {
        const key = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || error.validationContext || 'body';
        if (issues.has(key)) continue;
        const issue: TZodIssue = { ...(v.params as TZodIssue), code: v.keyword, message: v.message ?? '' };
        issues.set(key, issue);
        fields[key] = fieldError(issueCode(issue));
      }
      // A segment filter's fault is the specification's one message, with each fault's place
      // (filter.groups.0.items.1.value) and kind, so the console can mark it.
      const filterKeys = Object.keys(fields).filter((key) => key === 'filter' || key.startsWith('filter.'));
      if (filterKeys.length > 0) {
        const marked: TFieldErrors = {};
        for (const key of filterKeys) {
          const kind = issues.get(key)!.message ?? '';
          marked[key] = {
            code: (FILTER_FAULTS as readonly string[]).includes(kind) ? kind : 'invalid',
            message: ERROR_MESSAGES.filter_invalid,
          };
        }
        return reply
          .status(400)
          .send({ error: { code: 'filter_invalid', message: ERROR_MESSAGES.filter_invalid, fields: marked } });
      }
      return reply
        .status(400)
        .send({ error: { code: 'validation_failed', message: ERROR_MESSAGES.validation_failed, fields } });
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return reply.status(400).send({ error: { code: 'malformed_json', message: ERROR_MESSAGES.malformed_json } });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ error: { code: 'body_too_large', message: ERROR_MESSAGES.body_too_large } });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .status(415)
        .send({ error: { code: 'unsupported_media_type', message: ERROR_MESSAGES.unsupported_media_type } });
    }
    if (error.code === 'FST_ERR_RATE_LIMIT_REACHED' || status === 429) {
      return reply
        .status(429)
        .send({ error: { code: 'too_many_attempts', message: ERROR_MESSAGES.too_many_attempts } });
    }
    if (status >= 400 && status < 500) {
      return reply
        .status(400)
        .send({ error: { code: 'validation_failed', message: ERROR_MESSAGES.validation_failed } });
    }
    // Unexpected: log the error object (pino serialises message and stack, never the body).
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'general', message: ERROR_MESSAGES.general } });
  });
}

/** Thrown when a remembered session turned out to have changed: the route starts over afresh. */
export class StaleSessionError extends Error {
  constructor() {
    super('The remembered session has changed');
  }
}
