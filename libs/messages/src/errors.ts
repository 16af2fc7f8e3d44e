import { ErrorCode } from './generated/tokensvc/v1/common';

/** The error half of a reply as it travels over NATS (inside Nest's `err` field). */
export interface RpcErrorPayload {
  code: ErrorCode;
  message: string;
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['code'] === 'string' && typeof v['message'] === 'string' && (Object.values(ErrorCode) as string[]).includes(v['code']);
}
