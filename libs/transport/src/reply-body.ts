// Nest's decorators need it loaded before any of its modules; the package root would load it, the
// serializers' deep path below does not.
import 'reflect-metadata';
import { promisify } from 'node:util';
import { constants as zlib, gzip } from 'node:zlib';
import type { NatsContext, Serializer } from '@nestjs/microservices';
// Nest does not re-export its serializers from the package root.
import { NatsRecordSerializer } from '@nestjs/microservices/serializers';
import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { ErrorCode, type RpcErrorPayload } from '@tokensvc/messages';

/**
 * Replies that cross NATS as the final HTTP body. A large data reply (a /v2/account answer is ~130 kB
 * of JSON) used to be encoded by the service, parsed and mapped by the gateway and encoded again for
 * the client. A caller that wants the body itself sends its request to the endpoint's subject with
 * the view it is entitled to appended (`<subject>.view.paid`: every field; `<subject>.view.free`:
 * token records without the paid-only metrics); a service that can answer so replies with the bytes
 * of the JSON response body and a reply header saying so, and the gateway sends them to the client
 * untouched. Errors still cross as the usual Nest packet (`{ err: { code, message } }`).
 *
 * The view is on the subject, not in a header, because the bus permissions are per subject: only
 * the gateway's NATS user may publish to the view subjects (nats-permissions.ts), so no other
 * publisher can ask for the paid view, whatever it puts in its headers. With or without
 * credentials on the bus the code path is the same.
 */
/** on a reply: the payload is the response body, of this media type */
export const BODY_REPLY_HEADER = 'Tokensvc-Body';
/** on a reply: the body is compressed (`gzip`) */
export const BODY_ENCODING_HEADER = 'Tokensvc-Body-Encoding';
export const BODY_MEDIA_TYPE = 'application/json';

export const BODY_VIEWS = ['paid', 'free'] as const;
export type BodyView = (typeof BODY_VIEWS)[number];

/**
 * Bodies above this size cross gzipped (level 1: JSON token records shrink ~8x in ~1 ms per 100 kB,
 * on the thread pool): NATS refuses messages over its max_payload (1 MB by default), which an
 * account holding several hundred tokens would pass.
 */
export const BODY_GZIP_ABOVE_BYTES = 256 * 1024;

/** The bytes of a JSON response body, ready for the client (gzipped when `encoding` says so). */
export class EncodedBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly encoding?: 'gzip',
  ) {}
}

const gzipAsync = promisify(gzip);

/** A JSON body as it crosses the bus: as it is, or gzipped above BODY_GZIP_ABOVE_BYTES. */
export async function jsonBody(bytes: Buffer, gzipAbove = BODY_GZIP_ABOVE_BYTES): Promise<EncodedBody> {
  if (bytes.length <= gzipAbove) return new EncodedBody(bytes);
  return new EncodedBody(await gzipAsync(bytes, { level: zlib.Z_BEST_SPEED }), 'gzip');
}

/** The subject a request for the body in `view` goes to. */
export function bodyViewSubject(subject: string, view: BodyView): string {
  return `${subject}.view.${view}`;
}

/** Every subject a handler that answers bodies listens on: the plain one (the reply message) and one per view. */
export function bodySubjects(subject: string): string[] {
  return [subject, ...BODY_VIEWS.map((v) => bodyViewSubject(subject, v))];
}

/** The view a request asked its body for (its subject's `.view.<view>` suffix), or undefined for the usual reply. */
export function bodyViewOf(ctx: NatsContext | undefined): BodyView | undefined {
  const subject = ctx?.getSubject() ?? '';
  const at = subject.lastIndexOf('.view.');
  if (at < 0) return undefined;
  const value = subject.slice(at + '.view.'.length);
  return value === 'paid' || value === 'free' ? value : undefined;
}

/** What a reply that is a body says about it in its headers (undefined: the usual packet). */
export function bodyOfReply(data: Uint8Array, headers: MsgHdrs | undefined): EncodedBody | undefined {
  if (headers?.get(BODY_REPLY_HEADER) !== BODY_MEDIA_TYPE) return undefined;
  return new EncodedBody(data, headers.get(BODY_ENCODING_HEADER) === 'gzip' ? 'gzip' : undefined);
}

interface ReplyPacket {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

interface Outgoing {
  data: Uint8Array;
  headers?: MsgHdrs;
}

/** room for the headers and protocol line next to the payload */
const HEADER_ROOM = 256;

/**
 * Nest's NATS reply serializer, with two additions:
 * - an EncodedBody response goes out as the whole payload with the `Tokensvc-Body` header (no
 *   packet around it, no second JSON encoding); handlers return one only when asked (bodyViewOf);
 * - a reply larger than the server's max_payload becomes an error reply naming both sizes (the
 *   NATS client would throw on publish, outside any handler: the caller would only see a timeout).
 */
export class RpcReplySerializer implements Serializer<ReplyPacket, Outgoing> {
  private readonly packets = new NatsRecordSerializer();

  /** `maxPayload`: the connected server's limit, when known */
  constructor(private readonly maxPayload: () => number | undefined = () => undefined) {}

  serialize(packet: ReplyPacket): Outgoing {
    const out = this.encode(packet);
    const limit = this.maxPayload();
    if (limit === undefined || out.data.length + HEADER_ROOM <= limit) return out;
    const err: RpcErrorPayload = {
      code: ErrorCode.ERROR_CODE_INTERNAL,
      message: `the reply (${out.data.length} bytes) is larger than the message bus accepts (max_payload ${limit} bytes)`,
    };
    return this.packets.serialize({ id: packet.id, isDisposed: true, err }) as Outgoing;
  }

  private encode(packet: ReplyPacket): Outgoing {
    const body = packet?.response;
    if (body instanceof EncodedBody && packet.err === undefined) {
      const h = natsHeaders();
      h.set(BODY_REPLY_HEADER, BODY_MEDIA_TYPE);
      if (body.encoding) h.set(BODY_ENCODING_HEADER, body.encoding);
      return { data: body.bytes, headers: h };
    }
    return this.packets.serialize(packet) as Outgoing;
  }
}
