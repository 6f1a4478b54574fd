// The QA dashboard's client: plain browser JavaScript, served as is (no build step, no CDN). It
// calls the API with fetch and the pasted sandbox token, and builds every row with textContent, so
// nothing the API returns is ever parsed as markup. Times are shown in UTC, as the API stores them.

const KEY = 'billing-sim.token';
/** Events that move money (the timeline's kind `charge`); the rest are `event`. */
const CHARGES = new Set([
  'purchase.paid', 'purchase.payment_failure', 'purchase.subscription_charge_failure', 'purchase.pending_execute', 'purchase.hold',
  'purchase.captured', 'purchase.released', 'purchase.refunded',
]);
const $ = (id) => document.getElementById(id);
let token = localStorage.getItem(KEY) ?? '';
/** Subscribers whose timeline the tester opened or closed, kept across refreshes. */
const opened = new Map();

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined && value !== false) node.setAttribute(name, value === true ? '' : value);
  node.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return node;
}

const utc = (seconds) => (seconds === null || seconds === undefined ? '—' : `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);

function money(minor, currency) {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** `rows` are arrays of cells; `attrsOf(index)` gives a row's attributes (the timeline's data-kind). */
function table(caption, headers, rows, attrsOf = () => ({})) {
  if (!rows.length) return el('p', { class: 'hint' }, `No ${caption.toLowerCase()}.`);
  return el('table', {}, el('caption', { class: 'hint' }, caption),
    el('thead', {}, el('tr', {}, headers.map((header) => el('th', { scope: 'col' }, header)))),
    el('tbody', {}, rows.map((cells, index) => el('tr', attrsOf(index), cells.map((cell) => el('td', {}, cell))))));
}

async function api(method, path, body) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const first = data && Object.entries(data)[0];
    throw new Error(`${method} ${path} → ${response.status}${first ? `: ${first[0]}: ${first[1][0]?.message}` : ''}`);
  }
  return data;
}

/** Every item of a list (one page of up to 1000, newest first). */
const list = async (path) => (await api('GET', `${path}${path.includes('?') ? '&' : '?'}page_size=1000`)).results;

function say(text, isError = false) {
  $('message').textContent = text;
  $('message').className = isError ? 'alert error' : 'hint';
}

/**
 * What each purchase status means to a tester; the colour comes from the class `status-{status}`
 * (dashboard.ts), and the words differ too, so nothing depends on colour alone. A status the
 * simulator never produces (the platform has 21) still shows, in the neutral colour.
 */
const STATUS_MEANING = {
  created: 'new, not sent',
  sent: 'invoice e-mailed, waiting for payment',
  viewed: 'checkout page opened, waiting for payment',
  pending_execute: 'collected with a service type; the bank executes it later',
  paid: 'paid',
  hold: 'authorised: funds reserved, awaiting capture or release',
  released: 'authorisation released: no payment taken',
  refunded: 'refunded in full',
  error: 'last payment attempt failed; still payable',
  overdue: 'due passed unpaid; still payable',
  expired: 'due passed with due_strict: no longer payable',
  cancelled: 'cancelled: no longer payable',
};

/** The purchase's status as a coloured badge, plus "marked as paid" for a payment made outside the gateway. */
function statusBadges(p) {
  const badge = el('span', { class: `badge status-${p.status}`, 'data-status': p.status, title: STATUS_MEANING[p.status] ?? p.status }, p.status);
  return p.marked_as_paid ? [badge, ' ', el('span', { class: 'badge marked-as-paid', title: 'paid outside the gateway (mark_as_paid)' }, 'marked as paid')] : [badge];
}

/** The money of a paid purchase still refundable, or "—" when there is none to refund through the gateway. */
function refundable(p) {
  return p.status === 'paid' && !p.marked_as_paid ? money(p.refundable_amount, p.purchase.currency) : '—';
}

/** An instant in the purchase table, all of whose times are UTC (its header says so): "2026-01-30 12:00". */
const at = (seconds) => utc(seconds).replace(/ UTC$/, '');

/** One line on what happened to the money: paid how, captured, refunded, reserved, or why it is not payable. */
function paymentDetails(p) {
  const m = (minor) => money(minor, p.purchase.currency);
  const paid = p.payment?.amount ?? p.purchase.total;
  const failed = p.transaction_data?.attempts?.find((attempt) => !attempt.successful);
  switch (p.status) {
    case 'paid': {
      if (p.marked_as_paid) return `marked as paid ${at(p.payment?.paid_on)}: paid outside the gateway, nothing to refund`;
      const parts = [`paid ${at(p.payment?.paid_on)} with ${p.payment?.payment_method ?? '—'}`];
      if (paid < p.purchase.total) parts.push(`captured ${m(paid)} of ${m(p.purchase.total)} authorised`);
      if (paid > p.refundable_amount) parts.push(`${m(paid - p.refundable_amount)} refunded`);
      return parts.join('; ');
    }
    case 'refunded':
      return `${m(paid)} refunded in full`;
    case 'hold':
      return `${m(p.purchase.total)} authorised, awaiting capture`;
    case 'error':
      return failed?.error ? `declined: ${failed.error.message || failed.error.code}` : STATUS_MEANING.error;
    case 'overdue':
      return `due ${at(p.due)} passed unpaid; still payable`;
    case 'expired':
      return `due ${at(p.due)} passed with due_strict: no longer payable`;
    default:
      return STATUS_MEANING[p.status] ?? p.status;
  }
}

function renderPurchases(purchases, clients) {
  $('purchases').replaceChildren(table('Purchases', ['Created (UTC)', 'Client', 'Amount', 'Status', 'Refundable', 'Details'], purchases.map((p) => [
    at(p.created_on),
    clients.get(p.client_id)?.email ?? p.client_id,
    money(p.purchase.total, p.purchase.currency),
    statusBadges(p),
    refundable(p),
    [paymentDetails(p), ' ', el('a', { href: p.checkout_url, 'aria-label': `checkout page of purchase ${p.id}` }, 'checkout')],
  ]), (index) => ({ 'data-purchase': purchases[index].id })));
}

/** Lists arrive newest first; the timeline reads oldest first, and a stable sort keeps same-second entries in the order they happened. */
function timeline(subscriber, purchases, events, outbox) {
  [purchases, events, outbox] = [purchases, events, outbox].map((items) => [...items].reverse());
  const mine = purchases.filter((p) => p.billing_template_id === subscriber.billing_template_id && p.client_id === subscriber.client_id);
  const ids = new Set(mine.map((p) => p.id));
  const entries = [
    ...mine.map((p) => ({ at: p.created_on, rank: 0, kind: 'purchase', what: [`issued ${p.issued}, ${money(p.purchase.total, p.purchase.currency)}, now `, ...statusBadges(p), ' ', el('a', { href: p.checkout_url }, 'checkout')] })),
    ...events.filter((e) => ids.has(e.object_id)).map((e) => ({ at: e.created_on, rank: 1, kind: CHARGES.has(e.event_type) ? 'charge' : 'event', what: [e.event_type] })),
    ...outbox.filter((m) => ids.has(m.purchase_id)).map((m) => ({ at: m.sent_on, rank: 2, kind: 'e-mail', what: [`${m.kind} to ${m.to}`] })),
  ].sort((a, b) => a.at - b.at || a.rank - b.rank);
  return table('Timeline', ['When', 'Kind', 'What'], entries.map((entry) => [utc(entry.at), entry.kind, entry.what]), (index) => ({ 'data-kind': entries[index].kind }));
}

function renderSubscribers(templates, clients, purchases, events, outbox) {
  const target = $('subscribers');
  const rows = templates.flatMap((t) => t.subscribers.map((s) => ({ s, t })));
  if (!rows.length) return target.replaceChildren(el('p', { class: 'hint' }, 'No subscribers.'));
  target.replaceChildren(...rows.map(({ s, t }) => {
    const who = clients.get(s.client_id)?.email ?? s.client_id;
    const open = opened.get(s.id) ?? rows.length <= 5;
    const details = el('details', { 'data-subscriber': s.id, open },
      el('summary', {}, `${who} — ${t.title || t.id}: `, el('strong', { class: 'subscriber-status' }, s.status),
        `, next billing ${s.subscription_billing_scheduled_on ?? 'none'}, ${s.number_of_billing_cycles_passed} cycle(s) passed`),
      timeline(s, purchases, events, outbox));
    details.addEventListener('toggle', () => opened.set(s.id, details.open));
    return details;
  }));
}

function renderTemplates(templates) {
  $('templates').replaceChildren(table('Templates', ['Title', 'Kind', 'Amount', 'Paused', 'Subscribers'], templates.map((t) => [
    t.title || t.id,
    t.is_subscription ? `every ${t.subscription_period} ${t.subscription_period === 1 ? t.subscription_period_units.replace(/s$/, '') : t.subscription_period_units}` : 'one-time',
    money(t.purchase.total, t.purchase.currency),
    t.is_subscription && t.subscription_paused ? 'paused' : 'no',
    String(t.subscribers.length),
  ])));
}

function renderOutbox(outbox, purchases) {
  const links = new Map(purchases.map((p) => [p.id, p.checkout_url]));
  $('outbox').replaceChildren(table('E-mails', ['Sent', 'Kind', 'To', 'Purchase'], outbox.map((m) => [
    utc(m.sent_on), m.kind, m.to, links.has(m.purchase_id) ? el('a', { href: links.get(m.purchase_id) }, m.purchase_id) : m.purchase_id,
  ])));
}

async function refresh() {
  if (!token) return say('Paste a sandbox token to begin.');
  try {
    const [clock, templates, clients, purchases, events, outbox] = await Promise.all([
      api('GET', '/sim/v1/clock'), list('/api/v1/billing_templates/'), list('/api/v1/clients/'),
      list('/api/v1/purchases/'), list('/sim/v1/events'), list('/sim/v1/outbox'),
    ]);
    // One read of the newest purchases, events and e-mails serves every subscriber's timeline (each picks its own).
    for (const t of templates) t.subscribers = t.is_subscription ? await list(`/api/v1/billing_templates/${t.id}/clients/`) : [];
    $('clock-now').textContent = clock.now;
    $('clock-frozen').textContent = clock.frozen ? '(frozen)' : '(running)';
    $('advance-date').min = clock.now.slice(0, 10);
    renderTemplates(templates);
    const byId = new Map(clients.map((c) => [c.id, c]));
    renderSubscribers(templates, byId, purchases, events, outbox);
    renderPurchases(purchases, byId);
    renderOutbox(outbox, purchases);
    say(`Sandbox loaded: ${templates.length} template(s), ${purchases.length} purchase(s).`);
  } catch (error) {
    say(error.message, true);
  }
}

async function advance(target) {
  const buttons = document.querySelectorAll('#clock-heading ~ * button');
  buttons.forEach((button) => (button.disabled = true));
  try {
    const answer = await api('POST', '/sim/v1/clock/advance', target);
    const counts = Object.entries(answer.processed).filter(([, n]) => n > 0).map(([what, n]) => `${what.replace(/_/g, ' ')}: ${n}`);
    $('processed').textContent = `Advanced to ${answer.now}: ${counts.join(', ') || 'nothing was due'}.`;
    await refresh();
  } catch (error) {
    say(error.message, true);
  } finally {
    buttons.forEach((button) => (button.disabled = false));
  }
}

$('token').value = token;
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('token').value.trim();
  localStorage.setItem(KEY, token);
  refresh();
});
$('forget').addEventListener('click', () => {
  token = '';
  localStorage.removeItem(KEY);
  $('token').value = '';
  say('Token forgotten.');
});
for (const button of document.querySelectorAll('button.advance')) button.addEventListener('click', () => advance({ by: button.dataset.by }));
$('advance-form').addEventListener('submit', (event) => {
  event.preventDefault();
  advance({ to: `${$('advance-date').value}T00:00:00Z` });
});
refresh();
