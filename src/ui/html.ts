// HTML for the simulator's pages: one tagged template that escapes every interpolated value, so
// a product named `<script>` shows as text. Only what another `html` template (or `raw`) produced
// is inserted as markup; arrays are joined with each item treated the same way.

export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

function fragment(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(fragment).join('');
  // `${cond && html`…`}` leaves false, null or undefined where nothing should show.
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += fragment(value) + strings[index + 1]!;
  });
  return new SafeHtml(out);
}

/** Markup written by this program, never by a request (the shared style sheet). */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

/**
 * Money from integer minor units, as the currency writes it: 2990 EUR → "€29.90", 500 JPY → "¥500".
 * The number of decimals is the currency's own (Intl knows ISO 4217); a code Intl refuses falls
 * back to two decimals and the code.
 */
export function formatMoney(minor: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minor / 10 ** digits);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** An instant (Unix seconds) as a reader of that time zone sees it: "5 Feb 2026, 00:00 (UTC)". */
export function formatInstant(seconds: number, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(seconds * 1000);
  return `${text} (${timeZone})`;
}

const STYLE = `
  :root { font-family: system-ui, sans-serif; color: #1b1f23; background: #f6f7f9; }
  body { margin: 0 auto; max-width: 56rem; padding: 1.5rem; line-height: 1.45; }
  header.brand { font-size: .9rem; color: #555; text-transform: uppercase; letter-spacing: .06em; }
  main > section, main > form, .card { background: #fff; border: 1px solid #d9dde3; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e5e8ec; vertical-align: top; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  /* A table wider than its card on a phone (390 px) scrolls inside the card instead of running past it. */
  .table-wrap { overflow-x: auto; }
  td { overflow-wrap: break-word; }
  td.num, th.num { white-space: nowrap; }
  /* On a phone the unit price gives way to the line's amount, which says what is paid. */
  @media (max-width: 30rem) {
    body { padding: .75rem; } th, td { padding: .3rem .35rem; } main > section, main > form, .card { padding: .75rem; }
    .wide-only { display: none; }
  }
  fieldset { border: 1px solid #d9dde3; border-radius: 6px; margin: .75rem 0; padding: .5rem 1rem; min-width: 0; }
  main > section > h2:first-child, main > form > h2:first-child { margin-top: 0; }
  legend { font-weight: 600; padding: 0 .25rem; }
  .choice { display: block; padding: .2rem 0; }
  .hint { color: #555; font-size: .9rem; margin: .25rem 0; }
  .alert { border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; border: 1px solid; }
  .alert.error { background: #fdecea; border-color: #e0a39d; }
  .alert.success { background: #e8f5e9; border-color: #9cc9a0; }
  .alert.info { background: #eef3fb; border-color: #a9bfe0; }
  .alert > p { margin: .4rem 0; }
  .alert > p:first-child { margin-top: 0; }
  .alert > p:last-child { margin-bottom: 0; }
  button { font: inherit; padding: .45rem 1rem; border-radius: 6px; border: 1px solid #1d4ed8; background: #2563eb; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #1d4ed8; }
  button:focus-visible, input:focus-visible, a:focus-visible, summary:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  input[type=text], input[type=password], input[type=date] { font: inherit; padding: .35rem .5rem; border: 1px solid #9aa3ad; border-radius: 4px; }
  /* A select as wide as its longest option (a decline reason with its message) must not widen a phone's page,
     nor the fieldset around it, which is at least as wide as its content without min-width 0. */
  select { max-width: 100%; }
  .row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
  code { font-size: .9em; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

/** The shell every page shares: language, viewport, title and the style sheet. */
export function page(title: string, body: SafeHtml, head: SafeHtml = html``): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${raw(STYLE)}</style>
${head}
</head>
<body>
${body}
</body>
</html>
`.value;
}
