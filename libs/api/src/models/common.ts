import { Type } from '@sinclair/typebox';
import { dateTime, named, nullable, stringEnum, type Static } from '../schema/types';

/**
 * The closed set of machine-readable error codes: clients branch on `code`, never on the prose of
 * `message`. Additive to the spec's `{ statusCode, error, message }`.
 */
export const ERROR_CODES = [
  'invalid_parameter',
  'unauthorized',
  'forbidden',
  'forbidden_plan',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'conflict',
  'rate_limited',
  'quota_exhausted',
  'failed_auth_throttled',
  'internal',
  'not_implemented',
  'unavailable',
  'timeout',
] as const;
export type ErrorCodeName = (typeof ERROR_CODES)[number];

/** The code an error gets when its producer names none: one per HTTP status. */
export function defaultErrorCode(status: number): ErrorCodeName {
  switch (status) {
    case 400:
      return 'invalid_parameter';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'conflict';
    case 408:
      return 'timeout';
    case 413:
    case 431:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 501:
      return 'not_implemented';
    case 503:
      return 'unavailable';
    case 504:
      return 'timeout';
    default:
      return status >= 400 && status < 500 ? 'invalid_parameter' : 'internal';
  }
}

/** Every error answer: `{ statusCode, error, message, code }`. */
export const ErrorBody = named(
  'Error',
  Type.Object({
    statusCode: Type.Integer({ example: 400 }),
    error: Type.String({ example: 'Bad Request' }),
    message: Type.String({
      description: 'what went wrong, naming the parameter and what is accepted',
      example: 'invalid limit "500": must be an integer from 1 to 250',
    }),
    code: stringEnum(ERROR_CODES, {
      description:
        "machine-readable reason (a closed set; branch on this, not on message): forbidden_plan = the key's plan does not include the endpoint; quota_exhausted = monthly quota used up; failed_auth_throttled = too many failed authentications from this address; rate_limited = per-minute limit (see retry-after)",
      example: 'invalid_parameter',
    }),
  }),
);
export type ErrorBody = Static<typeof ErrorBody>;

export const Health = named('Health', Type.Object({ status: Type.String({ example: 'ok' }), timestamp: dateTime() }));
export type Health = Static<typeof Health>;

/** `finality` of the data endpoints (issue 23): answer as of the latest indexed block (default) or the last finalized one. */
export const FINALITIES = ['latest', 'finalized'] as const;
export type Finality = (typeof FINALITIES)[number];

/** The block data is derived from (issue 23): additive to the spec's records. */
export const BlockLabel = named(
  'BlockLabel',
  Type.Object(
    {
      number: Type.Integer({
        description: "block number of the figures (the indexer cursor, the finalized block, or a candle's last block)",
      }),
      hash: nullable(Type.String({ description: 'block hash; null when the indexer did not keep that header' })),
      final: Type.Boolean({
        description:
          "at or below the network's finalized block (cursor minus its finality depth): a reorg shallower than that depth cannot change it",
      }),
    },
    { description: 'The block a record is derived from and whether it is final for its network.' },
  ),
);
export type BlockLabel = Static<typeof BlockLabel>;

/** Page fields shared by the paged list responses. */
export const PAGE_PROPS = {
  totalItems: Type.Number({ description: 'a client should accept a number or a numeric string' }),
  pageItems: Type.Number(),
  more: Type.Boolean(),
  page: Type.Number(),
};
