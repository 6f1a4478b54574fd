// The QA dashboard's shared part (served as /ui/dashboard-base.js, the first of its classic scripts,
// no build step): the state the scripts keep across refreshes, the element builder, times and money
// as the dashboard shows them, tables, and the API client with its errors. The dashboard's files share
// one global scope; this one only defines, and the others (dashboard-browser.js last) build on it.

/** Statuses in which a purchase can still be paid, declined or marked as paid (src/domain/purchases.ts). */
const PAYABLE = new Set(['created', 'sent', 'viewed', 'error', 'overdue']);
const $ = (id) => document.getElementById(id);
let token = '';
/** Subscribers whose timeline the tester opened or closed, kept across refreshes. */
const opened = new Map();
/** What the view keeps across the refresh after an action, by owner (`purchase:{id}`, `subscriber:{id}`): */
const results = new Map(); // the action's result, { text, error }
const busy = new Set(); // owners with an action under way: their buttons render disabled
const forms = new Map(); // purchase id → the form open under its row: 'pay' | 'refund'
const formRows = new Map(); // purchase id → that form's row
/** Payment methods by `{brand}/{currency}`, read once per sandbox for the pay form. */
const methods = new Map();

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined && value !== false) node.setAttribute(name, value === true ? '' : value);
  node.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return node;
}

const utc = (seconds) => (seconds === null || seconds === undefined ? '—' : `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);

/** Decimals of a currency (2 for EUR, 0 for JPY), as Intl knows ISO 4217. */
function digits(currency) {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

function money(minor, currency) {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits(currency));
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** `rows` are arrays of cells; `attrsOf(index)` gives a row's attributes (the timeline's data-kind). */
function table(caption, headers, rows, attrsOf = () => ({})) {
  if (!rows.length) return el('p', { class: 'hint' }, `No ${caption.toLowerCase()}.`);
  return tableOfRows(caption, headers, rows.map((cells, index) => el('tr', attrsOf(index), cells.map((cell) => el('td', {}, cell)))));
}

/** A table of rows built by the caller (a row with its actions, and under it the row of an open form). */
const tableOfRows = (caption, headers, rows) => el('table', {}, el('caption', { class: 'hint' }, caption),
  el('thead', {}, el('tr', {}, headers.map((header) => el('th', { scope: 'col' }, header)))),
  el('tbody', {}, rows));

/**
 * A refused request: `first` is the error body's first field and message ("token_outcomes: …";
 * `__all__` is left out), `errors` the whole body (field path → [{message, code}]) when it is one.
 */
class ApiFailure extends Error {
  constructor(method, path, status, data) {
    const [field, details] = (data && typeof data === 'object' && Object.entries(data)[0]) || [];
    const message = Array.isArray(details) ? details[0]?.message : undefined;
    super(`${method} ${path} → ${status}${field ? `: ${field}: ${message}` : ''}`);
    this.first = message ? (field === '__all__' ? message : `${field}: ${message}`) : `The API answered ${status}.`;
    this.errors = data && typeof data === 'object' && !Array.isArray(data) ? data : null;
    this.status = status;
  }
}

async function api(method, path, body, { auth = true } = {}) {
  const headers = auth ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiFailure(method, path, response.status, data);
  return data;
}

/** Every item of a list (one page of up to 1000, newest first). */
const list = async (path) => (await api('GET', `${path}${path.includes('?') ? '&' : '?'}page_size=1000`)).results;

function say(text, isError = false) {
  $('message').textContent = text;
  $('message').className = isError ? 'alert error' : 'hint';
}
