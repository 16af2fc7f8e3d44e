import { ErrorCode } from '@tokensvc/messages';
import { InvalidTokenKeyError, normaliseTokenKey } from '@tokensvc/domain';
import { ServiceError } from '@tokensvc/transport';
import type { TokenRow } from './token-row';
import type { TokensRepository } from './tokens.repository';

/** Finds a token by any-case key: 400 for a malformed key, 404 for one that is not indexed. */
export async function requireToken(repo: TokensRepository, id: string): Promise<TokenRow> {
  let key: string;
  try {
    key = normaliseTokenKey(id);
  } catch (e) {
    if (e instanceof InvalidTokenKeyError) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, `id: ${e.message}`);
    throw e;
  }
  const row = await repo.byKey(key);
  if (!row)
    throw new ServiceError(
      ErrorCode.ERROR_CODE_NOT_FOUND,
      `token ${key} is not known to this service; list supported tokens with GET /v2/tokens`,
    );
  return row;
}

/** Transactions and metrics exist only for platform (composed) tokens. */
export function requirePlatformToken(row: TokenRow): void {
  if (row.family === 'basic' || row.family === 'native') {
    throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'Transactions are not supported for basic and native tokens');
  }
}
