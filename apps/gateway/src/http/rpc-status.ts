import { HttpStatus } from '@nestjs/common';
import type { ErrorCodeName } from '@tokensvc/api';
import { ErrorCode } from '@tokensvc/messages';

/** One table from the closed set of RPC error codes to HTTP statuses and the public error codes. */
export const RPC_HTTP_ERRORS: Record<ErrorCode, { readonly status: HttpStatus; readonly code: ErrorCodeName }> = {
  [ErrorCode.ERROR_CODE_UNSPECIFIED]: { status: HttpStatus.INTERNAL_SERVER_ERROR, code: 'internal' },
  [ErrorCode.ERROR_CODE_BAD_REQUEST]: { status: HttpStatus.BAD_REQUEST, code: 'invalid_parameter' },
  [ErrorCode.ERROR_CODE_NOT_FOUND]: { status: HttpStatus.NOT_FOUND, code: 'not_found' },
  [ErrorCode.ERROR_CODE_UNAVAILABLE]: { status: HttpStatus.SERVICE_UNAVAILABLE, code: 'unavailable' },
  [ErrorCode.ERROR_CODE_TIMEOUT]: { status: HttpStatus.GATEWAY_TIMEOUT, code: 'timeout' },
  [ErrorCode.ERROR_CODE_INTERNAL]: { status: HttpStatus.INTERNAL_SERVER_ERROR, code: 'internal' },
  [ErrorCode.ERROR_CODE_CONFLICT]: { status: HttpStatus.CONFLICT, code: 'conflict' },
  [ErrorCode.ERROR_CODE_RATE_LIMITED]: { status: HttpStatus.TOO_MANY_REQUESTS, code: 'rate_limited' },
};
