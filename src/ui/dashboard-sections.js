// The QA dashboard's sections (served as /ui/dashboard-sections.js before /ui/dashboard.js, no build
// step): how the templates, the subscribers (their warnings and timelines), the purchases (status
// badges and what happened to the money), the outbox and the webhook deliveries are drawn from what
// the API answered. Like dashboard-actions.js it only defines; dashboard-browser.js's render() calls.

/** Events that move money (the timeline's kind `charge`); the rest are `event`. */
const CHARGES = new Set([
  'purchase.paid', 'purchase.payment_failure', 'purchase.subscription_charge_failure', 'purchase.pending_charge', 'purchase.pending_execute', 'purchase.hold',
  'purchase.preauthorized', 'purchase.pending_capture', 'purchase.captured', 'purchase.pending_release', 'purchase.released',
  'purchase.pending_refund', 'purchase.refunded', 'purchase.settled',
]);
/** Events of a declined payment: when a subscriber's charge failed (attempts carry no time). */
const FAILURES = new Set(['purchase.payment_failure', 'purchase.subscription_charge_failure']);

/**
 * What each purchase status means to a tester; the colour comes from the class `status-{status}`
 * (dashboard.ts), and the words differ too, so nothing depends on colour alone. A status the
 * simulator never produces (the platform has 21) still shows, in the neutral colour.
 */
const STATUS_MEANING = {
  created: 'new, not sent',
  sent: 'invoice e-mailed, waiting for payment',
  viewed: 'checkout page opened, waiting for payment',
  pending_charge: 'charge with a saved card under way: paid or declined once the processing delay has passed',
  pending_execute: 'collected with a service type; the bank executes it later',
  paid: 'paid',
  hold: 'authorised: funds reserved, awaiting capture or release',
  preauthorized: 'card authorised with no charge (zero-amount authorisation): nothing to capture or release',
  pending_capture: 'capture under way: paid once the processing delay has passed',
  pending_release: 'release under way: the reserved money goes back once the processing delay has passed',
  pending_refund: 'refund under way: refunded once the processing delay has passed',
  released: 'authorisation released: no payment taken',
  refunded: 'refunded in full',
  error: 'last payment attempt failed; still payable',
  overdue: 'due passed unpaid; still payable',
  expired: 'due passed with due_strict: no longer payable',
  cancelled: 'cancelled: no longer payable',
};

/** When the platform settled the purchase's money with the merchant (Unix seconds), or null: `transaction_data.extra.settlement.settled_on`. */
const settledOn = (p) => p.transaction_data?.extra?.settlement?.settled_on ?? null;

/**
 * The purchase's status as a coloured badge, plus "marked as paid" for a payment made outside the
 * gateway and "settled" once the platform has settled it (the status stays `paid`).
 */
function statusBadges(p) {
  const badge = el('span', { class: `badge status-${p.status}`, 'data-status': p.status, title: STATUS_MEANING[p.status] ?? p.status }, p.status);
  const marks = [badge];
  if (p.marked_as_paid) marks.push(' ', el('span', { class: 'badge marked-as-paid', title: 'paid outside the gateway (mark_as_paid)' }, 'marked as paid'));
  if (settledOn(p) !== null) marks.push(' ', el('span', { class: 'badge settled', title: `settled with the merchant ${utc(settledOn(p))}` }, 'settled'));
  return marks;
}

/** The money of a paid purchase still refundable, or "—" when there is none to refund through the gateway. */
function refundable(p) {
  return p.status === 'paid' && !p.marked_as_paid ? money(p.refundable_amount, p.purchase.currency) : '—';
}

/** An instant in the purchase table, all of whose times are UTC (its header says so): "2026-01-30 12:00". */
const at = (seconds) => utc(seconds).replace(/ UTC$/, '');

/** The error of the purchase's newest failed attempt ({code, message}), or null. */
const lastDecline = (p) => p.transaction_data?.attempts?.find((attempt) => !attempt.successful)?.error ?? null;

/** Why the purchase's newest failed attempt failed: "Insufficient funds." */
const declineReason = (p) => {
  const error = lastDecline(p);
  return error ? error.message || error.code : null;
};

/**
 * One line on what happened to the money; a purchase still payable after a declined attempt adds the
 * reason with its code ("declined: The card has expired. (expired_card)"), which QA looks up.
 */
function paymentDetails(p) {
  const error = lastDecline(p);
  if (p.status === 'error' && error) return `declined: ${error.message} (${error.code})`;
  const settled = settledOn(p) === null ? '' : `; settled ${at(settledOn(p))}`;
  const details = moneyDetails(p) + settled;
  return error && PAYABLE.has(p.status) ? `${details}; last charge declined: ${error.message} (${error.code})` : details;
}

/** What happened to the money: paid how, captured, refunded, reserved, or why it is not payable. */
function moneyDetails(p) {
  const m = (minor) => money(minor, p.purchase.currency);
  const paid = p.payment?.amount ?? p.purchase.total;
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
    case 'preauthorized':
      return `card authorised with no charge${p.is_recurring_token ? ', saved for later charges' : ''}; nothing to capture`;
    case 'pending_capture':
      return `capture of the ${m(p.purchase.total)} authorised under way: paid once the processing delay has passed`;
    case 'pending_release':
      return `release of the ${m(p.purchase.total)} authorised under way: no payment is taken`;
    case 'pending_refund':
      return `paid ${at(p.payment?.paid_on)} with ${p.payment?.payment_method ?? '—'}; refund under way, done once the processing delay has passed`;
    case 'overdue':
      return `due ${at(p.due)} passed unpaid; still payable`;
    case 'expired':
      return `due ${at(p.due)} passed with due_strict: no longer payable`;
    default:
      return STATUS_MEANING[p.status] ?? p.status;
  }
}

function renderPurchases(purchases, clients) {
  if (!purchases.length) return $('purchases').replaceChildren(el('p', { class: 'hint' }, 'No purchases.'));
  const headers = ['Created (UTC)', 'Client', 'Amount', 'Status', 'Refundable', 'Details and actions'];
  $('purchases').replaceChildren(tableOfRows('Purchases', headers, purchases.flatMap((p) => {
      const who = clients.get(p.client_id)?.email ?? p.client_id;
      const amount = money(p.purchase.total, p.purchase.currency);
      const name = `the purchase of ${who}, ${amount}, created ${at(p.created_on)}`;
      const cells = [at(p.created_on), who, amount, statusBadges(p), refundable(p),
        [paymentDetails(p), ' ', el('a', { href: p.checkout_url, 'aria-label': `checkout page of purchase ${p.id}` }, 'checkout'), ...purchaseActions(p, name)]];
      const row = el('tr', { 'data-purchase': p.id }, cells.map((cell) => el('td', {}, cell)));
      return forms.has(p.id) && actionsOf(p).includes(forms.get(p.id)) ? [row, formRow(p, name)] : [row];
    })));
}

/** A subscriber's purchases: those of its template and client. */
const purchasesOf = (s, purchases) => purchases.filter((p) => p.billing_template_id === s.billing_template_id && p.client_id === s.client_id);

/**
 * Why a subscriber needs attention, in words: failed charges (a failed attempt in a purchase's
 * transaction_data, or a failure event, whose newest gives the date), then one line for each purchase
 * still unpaid (overdue, or payable after a declined charge) and each expired one. The count of
 * unpaid purchases on the first line is the number of unpaid lines under it, both taken from the same
 * list: a count of the declined purchases alone said "1 purchase still unpaid" above three overdue
 * ones that had never been charged. A failed charge stays a warning once nothing is unpaid ("since
 * paid"): the dunning happened.
 */
function warnings(mine, events) {
  const ids = new Set(mine.map((p) => p.id));
  const failedAttempts = mine.reduce((n, p) => n + (p.transaction_data?.attempts ?? []).filter((a) => !a.successful).length, 0);
  const failureEvents = events.filter((e) => FAILURES.has(e.event_type) && ids.has(e.object_id));
  const declined = (p) => Boolean(declineReason(p)) || failureEvents.some((e) => e.object_id === p.id);
  const unpaid = mine.filter((p) => PAYABLE.has(p.status) && (p.status === 'overdue' || declined(p)));
  const out = [];
  const count = Math.max(failedAttempts, failureEvents.length);
  if (count) {
    const last = failureEvents[0] ? ` on ${utc(failureEvents[0].created_on)}` : '';
    const reason = mine.filter(declined).map(declineReason).find(Boolean);
    const after = unpaid.length ? `${unpaid.length} purchase${unpaid.length > 1 ? 's' : ''} still unpaid` : 'since paid';
    out.push(`${count} failed charge${count > 1 ? 's' : ''}, the last${last}${reason ? ` (${reason.replace(/\.$/, '')})` : ''}; ${after}`);
  }
  for (const p of unpaid) {
    const amount = money(p.purchase.total, p.purchase.currency);
    out.push(p.status === 'overdue' ? `Overdue: ${amount} was due ${utc(p.due)} and is still unpaid` : `Declined: ${amount}${p.due ? `, due ${utc(p.due)},` : ''} is still unpaid`);
  }
  for (const p of mine.filter((q) => q.status === 'expired')) out.push(`Expired: ${money(p.purchase.total, p.purchase.currency)} was due ${utc(p.due)}; it can no longer be paid`);
  return out;
}

/** Lists arrive newest first; the timeline reads oldest first, and a stable sort keeps same-second entries in the order they happened. */
function timeline(mine, events, outbox) {
  [mine, events, outbox] = [mine, events, outbox].map((items) => [...items].reverse());
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
  let attention = 0;
  if (!rows.length) {
    $('attention').textContent = '';
    return target.replaceChildren(el('p', { class: 'hint' }, 'No subscribers.'));
  }
  target.replaceChildren(...rows.map(({ s, t }) => {
    const who = clients.get(s.client_id)?.email ?? s.client_id;
    const mine = purchasesOf(s, purchases);
    const warned = warnings(mine, events);
    if (warned.length) attention += 1;
    const name = `the subscriber ${who} of ${t.title || t.id}`;
    const details = el('details', { open: opened.get(s.id) ?? rows.length <= 5 },
      el('summary', {}, `Timeline (${mine.length} purchase${mine.length === 1 ? '' : 's'})`), timeline(mine, events, outbox));
    details.addEventListener('toggle', () => opened.set(s.id, details.open));
    return el('article', { class: `subscriber${warned.length ? ' attention' : ''}`, 'data-subscriber': s.id, 'aria-label': `${who} — ${t.title || t.id}` },
      el('div', { class: 'subscriber-head' },
        el('span', { class: 'who' }, `${who} — ${t.title || t.id}`),
        el('span', { class: `badge subscriber-status subscriber-${s.status}` }, s.status),
        el('span', { class: 'schedule' }, `next billing ${s.subscription_billing_scheduled_on ?? 'none'}, ${s.number_of_billing_cycles_passed} cycle(s) passed`),
        subscriberAction(s, t, name)),
      warned.length ? el('ul', { class: 'warnings', 'aria-label': `Warnings about ${who}` }, warned.map((text) => el('li', {}, text))) : null,
      details);
  }));
  $('attention').textContent = attention ? `${attention} of ${rows.length} subscriber(s) need attention: failed charges or unpaid purchases past due.` : '';
}

/** Each template, with the button that opens its form (add a subscriber, send an invoice) and that form's row when open. */
function renderTemplates(templates, clients) {
  if (!templates.length) return $('templates').replaceChildren(el('p', { class: 'hint' }, 'No templates.'));
  const headers = ['Title', 'Kind', 'Amount', 'Paused', 'Subscribers', 'Actions'];
  $('templates').replaceChildren(tableOfRows('Templates', headers, templates.flatMap((t) => {
      const name = t.title || t.id;
      const cells = [
        name,
        t.is_subscription ? `every ${t.subscription_period} ${t.subscription_period === 1 ? t.subscription_period_units.replace(/s$/, '') : t.subscription_period_units}` : 'one-time',
        money(t.purchase.total, t.purchase.currency),
        t.is_subscription && t.subscription_paused ? 'paused' : 'no',
        String(t.subscribers.length),
        templateActions(t, name),
      ];
      const row = el('tr', { 'data-template': t.id }, cells.map((cell) => el('td', {}, cell)));
      return templateForms.has(t.id) ? [row, templateFormRow(t, name, clients)] : [row];
    })));
}

function renderOutbox(outbox, purchases) {
  const links = new Map(purchases.map((p) => [p.id, p.checkout_url]));
  $('outbox').replaceChildren(table('E-mails', ['Sent', 'Kind', 'To', 'Purchase'], outbox.map((m) => [
    utc(m.sent_on), m.kind, m.to, links.has(m.purchase_id) ? el('a', { href: links.get(m.purchase_id) }, m.purchase_id) : m.purchase_id,
  ])));
}

/** How the deliveries table marks what delivery chaos (PUT /sim/v1/webhook_chaos) did to a delivery. */
const CHAOS_MARKS = { duplicate: 'duplicate', reordered: 'late: reordered', delayed: 'late: delayed' };

function renderDeliveries(deliveries) {
  $('deliveries').replaceChildren(table('Deliveries', ['Created', 'Event', 'To', 'Status', 'Attempts', 'Chaos'], deliveries.map((d) => [
    utc(d.created_on), d.event_type, d.url, d.status, String(d.attempts.length),
    d.chaos.map((mark) => el('span', { class: 'badge chaos', title: mark === 'duplicate' ? `a copy of delivery ${d.duplicate_of}` : undefined }, CHAOS_MARKS[mark])),
  ]), (index) => ({ 'data-delivery': deliveries[index].id })));
}
