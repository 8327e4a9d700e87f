// Where a sign-in may send the browser next: only to a path of the console. The same rule as
// agent_builder/console/security/redirects.py (a test keeps them in step): URL-safe characters
// and well-formed %XX escapes, one leading slash, and nothing that decodes to `//`, `/\`, a
// backslash or a control character (browsers drop tabs and newlines, read `\` as `/`).
const PATH = /^\/(?![/\\])(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/;
const UNSAFE_DECODED = /[\x00-\x1f\x7f\\]/;
export const DEFAULT_NEXT = '/agents';

export function safeNext(target) {
  if (!target || !PATH.test(target)) return DEFAULT_NEXT;
  let decoded;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return DEFAULT_NEXT;
  }
  if (decoded.startsWith('//') || decoded.startsWith('/\\') || UNSAFE_DECODED.test(decoded)) return DEFAULT_NEXT;
  return target;
}
