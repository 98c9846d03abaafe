import { CLIENT_EXCEPTION_CODE } from '@yado/contracts/errors';

export interface TFieldError {
  code: string;
  message: string;
}

/** A rejected call: the server's error code, or 000000 when the call threw before any answer. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, TFieldError> | undefined;
  /** Values the error names, a string or a list of names (template_in_use: the campaigns), for the console's own text. */
  readonly params: Record<string, string | string[]> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    fields?: Record<string, TFieldError>,
    params?: Record<string, string | string[]>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.params = params;
  }

  static exception(): ApiError {
    return new ApiError(0, CLIENT_EXCEPTION_CODE, '');
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
