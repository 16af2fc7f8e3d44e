import { HttpException, HttpStatus } from '@nestjs/common';
import { ErrorCode } from '@tokensvc/messages';
import { RpcCallError } from '@tokensvc/transport';

/** One table from the closed set of RPC error codes to HTTP statuses. */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, HttpStatus> = {
  [ErrorCode.ERROR_CODE_UNSPECIFIED]: HttpStatus.INTERNAL_SERVER_ERROR,
  [ErrorCode.ERROR_CODE_BAD_REQUEST]: HttpStatus.BAD_REQUEST,
  [ErrorCode.ERROR_CODE_NOT_FOUND]: HttpStatus.NOT_FOUND,
  [ErrorCode.ERROR_CODE_UNAVAILABLE]: HttpStatus.SERVICE_UNAVAILABLE,
  [ErrorCode.ERROR_CODE_TIMEOUT]: HttpStatus.GATEWAY_TIMEOUT,
  [ErrorCode.ERROR_CODE_INTERNAL]: HttpStatus.INTERNAL_SERVER_ERROR,
  [ErrorCode.ERROR_CODE_CONFLICT]: HttpStatus.CONFLICT,
  [ErrorCode.ERROR_CODE_RATE_LIMITED]: HttpStatus.TOO_MANY_REQUESTS,
};

export function rpcErrorToHttp(e: RpcCallError): HttpException {
  return new HttpException(e.message, HTTP_STATUS_BY_CODE[e.code]);
}
