import { redactUrl } from '@tokensvc/config';

/**
 * What the logger hides (issue 20). Fields by name, at the top of a line and one or two levels
 * down (pino's redaction, compiled once): credentials, API keys, authorization headers, private
 * keys and signatures. Free text (messages, error messages and stacks, string fields) goes through
 * `scrubSecrets`: user and password of URLs, `name=value` pairs with a secret name, bearer tokens
 * and whole API keys (the display prefix stays).
 */
const SECRET_FIELDS = [
  'password', 'passwd', 'secret', 'clientSecret', 'apiKey', 'api_key', 'apikey', 'authorization', 'Authorization', 'cookie', 'set-cookie',
  'x-api-key', 'privateKey', 'private_key', 'mnemonic', 'signature', 'permitSignature', 'token', 'adminToken', 'accessToken', 'refreshToken',
  'databaseUrl', 'redisUrl', 'natsPassword',
];

const quoted = (k: string): string => (/^[A-Za-z_]\w*$/.test(k) ? k : `["${k}"]`);
const join = (prefix: string, k: string): string => (quoted(k).startsWith('[') ? `${prefix}${quoted(k)}` : `${prefix}.${k}`);

/** pino `redact.paths`: each secret field at depth 1 to 3 (`password`, `*.password`, `*.*.password`). */
export const REDACT_PATHS: readonly string[] = SECRET_FIELDS.flatMap((k) => [quoted(k), join('*', k), join('*.*', k)]);

export const REDACTED = '[redacted]';

/** Names whose `name=value` / `name: value` in free text is a secret. */
const SECRET_NAMES = ['password', 'passwd', 'pwd', 'secret', 'apikey', 'api_key', 'api-key', 'x-api-key', 'token', 'authorization', 'signature', 'privatekey', 'private_key'];
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
