import { redactUrl } from '@tokensvc/config';

/**
 * What the logger hides (issue 20). Fields by name, at any of the first three levels of a line
 * (`redactFields`): credentials, API keys, authorization headers, private keys and signatures.
 * Free text (messages, error messages and stacks, string fields) goes through `scrubSecrets`:
 * user and password of URLs, `name=value` pairs with a secret name, bearer tokens and whole API
 * keys (the display prefix stays). Done before pino sees the line rather than with pino's `redact`
 * paths: its wildcard paths (`*.password`) cost 100-300 µs a line, this walk about 1 µs.
 */
const SECRET_FIELDS = new Set(
  [
    'password',
    'passwd',
    'secret',
    'clientSecret',
    'apiKey',
    'api_key',
    'authorization',
    'cookie',
    'set-cookie',
    'x-api-key',
    'privateKey',
    'private_key',
    'mnemonic',
    'signature',
    'permitSignature',
    'adminToken',
    'ownerToken',
    'accessToken',
    'refreshToken',
    'databaseUrl',
    'redisUrl',
    'natsPassword',
  ].map((k) => k.toLowerCase()),
);

export const REDACTED = '[redacted]';

/** `fields` with secret-named fields replaced and free text scrubbed, three levels deep (a copy). */
export function redactFields(fields: Record<string, unknown>, depth = 3): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_FIELDS.has(k.toLowerCase()) ? REDACTED : redactValue(v, depth - 1);
  return out;
}

function redactValue(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return scrubSecrets(v);
  if (depth <= 0 || typeof v !== 'object' || v === null || v instanceof Error) return v;
  if (Array.isArray(v)) return v.map((x) => redactValue(x, depth - 1));
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null ? redactFields(v as Record<string, unknown>, depth) : v;
}

/** Names whose `name=value` / `name: value` in free text is a secret. */
const SECRET_NAMES = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'apikey',
  'api_key',
  'api-key',
  'x-api-key',
  'access_token',
  'authorization',
  'signature',
  'privatekey',
  'private_key',
  'ownertoken',
];
const API_KEY_PREFIX = 'tsk_live_';
const API_KEY_SHOWN = API_KEY_PREFIX.length + 6;
const SEPARATORS = ['=', ':'];

function scrubToken(token: string): string {
  let out = token;
  if (out.includes('@') && out.includes('://')) out = redactUrl(out);
  const at = out.indexOf(API_KEY_PREFIX);
  if (at >= 0 && out.length - at > API_KEY_SHOWN) out = `${out.slice(0, at + API_KEY_SHOWN)}***`;
  const lower = out.toLowerCase();
  for (const name of SECRET_NAMES) {
    for (const sep of SEPARATORS) {
      const i = lower.indexOf(name + sep);
      if (i >= 0 && i + name.length + 1 < out.length) return `${out.slice(0, i + name.length + 1)}***`;
    }
  }
  return out;
}

/** `text` without the secrets free text tends to carry (see above). Cheap when there are none. */
export function scrubSecrets(text: string): string {
  if (!/[@=:]|tsk_live_|bearer/i.test(text)) return text;
  let redactNext = false;
  return text.replace(/\S+/g, (token) => {
    if (redactNext) {
      redactNext = false;
      return '***';
    }
    const lower = token.toLowerCase();
    // `Bearer <key>`, `password: <value>`, `authorization: <value>`: the next word is the secret
    if (lower === 'bearer' || SECRET_NAMES.some((n) => lower === `${n}:` || lower === `${n}=`)) {
      redactNext = true;
      return token;
    }
    return scrubToken(token);
  });
}
