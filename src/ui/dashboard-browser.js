// The QA dashboard's client: plain browser JavaScript, served as is (no build step, no CDN). It
// calls the API with fetch and the pasted sandbox token, and builds every row with textContent, so
// nothing the API returns is ever parsed as markup. Times are shown in UTC, as the API stores them.

const KEY = 'billing-sim.token';
const CHARGES = new Set(['purchase.paid', 'purchase.payment_failure', 'purchase.subscription_charge_failure', 'purchase.pending_execute', 'purchase.hold']);
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

/** Lists arrive newest first; the timeline reads oldest first, and a stable sort keeps same-second entries in the order they happened. */
function timeline(subscriber, purchases, events, outbox) {
  [purchases, events, outbox] = [purchases, events, outbox].map((items) => [...items].reverse());
  const mine = purchases.filter((p) => p.billing_template_id === subscriber.billing_template_id && p.client_id === subscriber.client_id);
  const ids = new Set(mine.map((p) => p.id));
  const entries = [
    ...mine.map((p) => ({ at: p.created_on, rank: 0, kind: 'purchase', what: [`issued ${p.issued}, ${money(p.purchase.total, p.purchase.currency)}, now ${p.status} `, el('a', { href: p.checkout_url }, 'checkout')] })),
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
    renderSubscribers(templates, new Map(clients.map((c) => [c.id, c])), purchases, events, outbox);
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
