import { natsInboxPrefix } from '@tokensvc/config';
import { SERVICES, STREAMS, type ServiceName } from '@tokensvc/messages';

/**
 * Who may do what on the bus: one NATS user per app, each
 * allowed the subjects its code uses and nothing else. Both the config `npm start` and the tests
 * give their own nats-server and the production NATS authorization block come from here.
 *
 * - Only the gateway publishes requests to the services' subjects. That covers the two things a
 *   request can claim about its caller: the paid view (asked for on `<subject>.view.paid`,
 *   reply-body.ts) and the caller of a signed-order submission (`SubmitOrderRequest.caller`, on
 *   the submit subject).
 * - A service subscribes to its own subjects and answers on the reply subject of what it received
 *   (`allow_responses`): it cannot publish a request anywhere.
 * - Every user reads replies on its own inbox prefix only (`_INBOX.<user>.>`, NatsConnectOptions):
 *   a shared `_INBOX.>` would let any service read the gateway's paid replies.
 * - JetStream: the writer of a stream may create it and publish to its subjects; a reader may
 *   create, read from and delete consumers on it. The gateway also creates the status stream
 *   (whichever of it and the tracker starts first).
 */
export const BUS_USERS = ['gateway', ...SERVICES] as const;
export type BusUser = (typeof BUS_USERS)[number];

export interface BusPermissions {
  publish: string[];
  subscribe: string[];
  /** may answer requests it received (one reply each) */
  allowResponses: boolean;
}

/** The streams and subject prefixes in use (tests isolate themselves with their own). */
export interface BusStreams {
  chain: { name: string; prefix: string };
  status: { name: string; prefix: string };
}

export const DEFAULT_BUS_STREAMS: BusStreams = {
  chain: { name: STREAMS.chain.name, prefix: 'chain' },
  status: { name: STREAMS.crossChainStatus.name, prefix: 'cross-chain-status' },
};

const JS_INFO = '$JS.API.INFO';
const streamWriter = (name: string): string[] => [JS_INFO, `$JS.API.STREAM.INFO.${name}`, `$JS.API.STREAM.CREATE.${name}`];
const streamReader = (name: string): string[] => [
  JS_INFO,
  `$JS.API.STREAM.INFO.${name}`,
  `$JS.API.CONSUMER.CREATE.${name}`,
  `$JS.API.CONSUMER.CREATE.${name}.>`,
  `$JS.API.CONSUMER.INFO.${name}.>`,
  `$JS.API.CONSUMER.DELETE.${name}.>`,
  `$JS.API.CONSUMER.MSG.NEXT.${name}.>`,
];
const inbox = (user: BusUser): string => `${natsInboxPrefix(user)}.>`;
/** every subject a service answers on (`<service>.>` holds the view subjects too) */
const serviceSubjects = (service: ServiceName): string => `${service}.>`;

export function busPermissions(streams: BusStreams = DEFAULT_BUS_STREAMS): Record<BusUser, BusPermissions> {
  const uniq = (xs: string[]): string[] => [...new Set(xs)];
  return {
    gateway: {
      publish: uniq([...SERVICES.map(serviceSubjects), ...streamWriter(streams.status.name), ...streamReader(streams.status.name)]),
      subscribe: [inbox('gateway')],
      allowResponses: false,
    },
    'token-data': { publish: [], subscribe: [serviceSubjects('token-data'), inbox('token-data')], allowResponses: true },
    indexer: {
      publish: uniq([...streamWriter(streams.chain.name), `${streams.chain.prefix}.>`]),
      subscribe: [serviceSubjects('indexer'), inbox('indexer')],
      allowResponses: true,
    },
    quote: { publish: streamReader(streams.chain.name), subscribe: [serviceSubjects('quote'), inbox('quote')], allowResponses: true },
    'status-tracker': {
      publish: uniq([...streamWriter(streams.status.name), `${streams.status.prefix}.>`]),
      subscribe: [serviceSubjects('status-tracker'), inbox('status-tracker')],
      allowResponses: true,
    },
  };
}

export interface NatsServerConfigOptions {
  /** per user: the password, or `{ env: NAME }` for a `$NAME` reference nats-server reads from its environment */
  passwords: Partial<Record<BusUser, string | { env: string }>>;
  /** the users to define (default: all) */
  users?: readonly BusUser[];
  listen?: string;
  /** JetStream store directory; JetStream is on either way */
  storeDir?: string;
  streams?: BusStreams;
  /** only the `authorization` block (to include in a server config of its own, e.g. a Helm chart's) */
  authorizationOnly?: boolean;
}

/** A nats-server configuration (its own format) with one user per app and the permissions above. */
export function natsServerConfig(o: NatsServerConfigOptions): string {
  const perms = busPermissions(o.streams);
  const q = (s: string): string => JSON.stringify(s);
  const list = (xs: string[]): string => `[${xs.map(q).join(', ')}]`;
  const users = (o.users ?? BUS_USERS).map((user) => {
    const p = perms[user];
    const pw = o.passwords[user];
    if (pw === undefined) throw new Error(`natsServerConfig: no password for NATS user ${user}`);
    // A service that may publish nothing but replies gets an explicit deny-all, so an empty allow list never reads as "anything".
    const publish = p.publish.length ? `publish: { allow: ${list(p.publish)} }` : 'publish: { deny: [">"] }';
    const responses = p.allowResponses ? ', allow_responses: true' : '';
    return `    { user: ${q(user)}, password: ${typeof pw === 'string' ? q(pw) : `$${pw.env}`}, permissions: { ${publish}, subscribe: { allow: ${list(p.subscribe)} }${responses} } }`;
  });
  return [
    '# Generated by natsServerConfig (libs/transport/src/nats-permissions.ts): one user per app.',
    ...(o.authorizationOnly
      ? []
      : [...(o.listen ? [`listen: ${q(o.listen)}`] : []), `jetstream { ${o.storeDir ? `store_dir: ${q(o.storeDir)}` : ''} }`]),
    'authorization {',
    '  users: [',
    users.join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

/** The environment variable holding a user's password in the production NATS config (`TOKENSVC_NATS_PASSWORD_TOKEN_DATA`, ...). */
export function natsPasswordEnv(user: BusUser): string {
  return `TOKENSVC_NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`;
}
