// Escaping for the JUnit reports of the proxy and the scenario runner (XML 1.0, attribute or text).

/** Text safe in an attribute or an element: characters XML 1.0 cannot hold at all (control characters an answer may echo) are dropped. */
export const escapeXml = (text: string): string =>
  text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
