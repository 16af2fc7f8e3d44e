/**
 * The value with the user and password of a URL in it replaced by `***`, for error messages and
 * logs. A value that does not parse as a URL (the case an error message prints) loses everything
 * between its `//` (or its start) and its last `@`.
 */
export function redactUrl(value: string): string {
  try {
    const u = new URL(value);
    if (!u.username && !u.password) return value;
    u.username = '***';
    u.password = '';
    return u.toString();
  } catch {
    const at = value.lastIndexOf('@');
    if (at < 0) return value;
    const slashes = value.indexOf('//');
    const from = slashes >= 0 && slashes < at ? slashes + 2 : 0;
    return `${value.slice(0, from)}***${value.slice(at)}`;
  }
}
