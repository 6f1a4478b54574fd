// The QA dashboard's actions (served as /ui/dashboard-actions.js before /ui/dashboard.js, no build
// step): the buttons and forms of each purchase and subscriber, the new-sandbox button, and how an
// action runs and shows its result. The dashboard's files are classic scripts sharing one global
// scope (dashboard-base.js holds the shared state): this one only defines, and dashboard-browser.js
// (the view, the token, the start) and dashboard-sections.js (the sections) call.

// ---------------------------------------------------------------- actions

/** The `role=status` element where an owner's action answers; it keeps its text across refreshes. */
function resultOf(owner) {
  const shown = results.get(owner);
  return el('span', { class: `result${shown?.error ? ' error' : ''}`, role: 'status', 'data-result': owner }, shown?.text ?? '');
}

function show(owner, text, error = false) {
  results.set(owner, { text, error });
  const node = document.querySelector(`[data-result="${owner}"]`);
  if (node) {
    node.textContent = text;
    node.classList.toggle('error', error);
  }
}

/** A button of an owner's action; `name` says which object it acts on to a screen reader, as the row's cells do to the eye. */
const actionButton = (owner, action, label, name, attrs = {}) =>
  el('button', { type: 'button', class: 'small', 'data-owner': owner, 'data-action': action, disabled: busy.has(owner), ...attrs },
    label, el('span', { class: 'visually-hidden' }, ` ${name}`));

/**
 * Runs one action of `owner`: its buttons disabled while the request runs, then the answer's
 * description (from `work`) or the API's first error message shown in place, then the view read
 * again. Focus goes back to the same button once the rows are rebuilt, else to the owner's first.
 */
async function act(owner, action, work) {
  busy.add(owner);
  document.querySelectorAll(`[data-owner="${owner}"]`).forEach((button) => (button.disabled = true));
  show(owner, 'Working…');
  try {
    show(owner, await work());
  } catch (error) {
    show(owner, error instanceof ApiFailure ? error.first : error.message, true);
  } finally {
    busy.delete(owner);
    // Usable again at once, not when the view read below comes back: a form's submit button left
    // disabled until then made Enter do nothing (implicit submission skips a disabled default button).
    document.querySelectorAll(`[data-owner="${owner}"]`).forEach((button) => (button.disabled = false));
  }
  await refresh({ quiet: true });
  if (document.activeElement && document.activeElement !== document.body) return;
  (document.querySelector(`[data-owner="${owner}"][data-action="${action}"]`) ?? document.querySelector(`button[data-owner="${owner}"]`))?.focus();
}

/** What a payment did, from the purchase it answered. */
function payResult(p) {
  if (p.status === 'error') return `Declined (${declineReason(p) ?? 'no reason given'}); still payable.`;
  const saved = p.is_recurring_token ? '; card saved for later charges' : '';
  const method = p.transaction_data?.payment_method || '—';
  const done = {
    paid: 'Paid', hold: 'Authorised (hold), awaiting capture,', pending_execute: 'Collected; the bank executes it later,',
    preauthorized: 'Card authorised with no charge (preauthorized)',
  }[p.status] ?? `Now ${p.status},`;
  return `${done} with ${method}${saved}.`;
}

const purchasePath = (p, action) => `/api/v1/purchases/${p.id}/${action}/`;

/** The one-click actions of a purchase: one request each, then a sentence about the answer. */
const PURCHASE_ACTIONS = {
  decline: { label: 'Decline', run: async (p) => payResult(await api('POST', `/sim/v1/purchases/${p.id}/pay`, { outcome: 'failure' })) },
  mark_as_paid: { label: 'Mark as paid', run: async (p) => (await api('POST', purchasePath(p, 'mark_as_paid')), 'Marked as paid: paid outside the gateway.') },
  // With a processing delay (dashboard-processing.js) the answer is the pending state, and the row says so until it ends.
  capture: {
    label: 'Capture',
    run: async (p) => {
      const after = await api('POST', purchasePath(p, 'capture'));
      return after.status === 'paid' ? `Captured ${money(after.payment.amount, p.purchase.currency)}.` : pendingResult('Capture', after.status);
    },
  },
  release: {
    label: 'Release',
    run: async (p) => {
      const after = await api('POST', purchasePath(p, 'release'));
      return after.status === 'released' ? 'Released: the reserved money went back, nothing was paid.' : pendingResult('Release', after.status);
    },
  },
};

/**
 * The actions a purchase's status allows (the platform's rules; a refused one would show the API's
 * reason). None while a pending step runs (pending_charge, pending_capture, pending_release,
 * pending_refund, pending_execute), and none for a card authorised with no charge (preauthorized): nothing to capture.
 */
function actionsOf(p) {
  if (PAYABLE.has(p.status)) return ['pay', 'decline', 'mark_as_paid'];
  if (p.status === 'hold') return ['capture', 'release'];
  if (p.status === 'paid' && !p.marked_as_paid && p.refundable_amount > 0) return ['refund'];
  return [];
}

function purchaseActions(p, name) {
  const owner = `purchase:${p.id}`;
  const buttons = actionsOf(p).map((action) => {
    if (action === 'pay' || action === 'refund') {
      const button = actionButton(owner, action, action === 'pay' ? 'Pay…' : 'Refund…', name, {
        'aria-expanded': String(forms.get(p.id) === action), 'aria-controls': `form-${p.id}`,
      });
      button.addEventListener('click', () => toggleForm(p, action));
      return button;
    }
    const button = actionButton(owner, action, PURCHASE_ACTIONS[action].label, name);
    button.addEventListener('click', () => act(owner, action, () => PURCHASE_ACTIONS[action].run(p)));
    return button;
  });
  return [buttons.length ? el('div', { class: 'actions' }, buttons) : null, resultOf(owner)];
}

/** Opens or closes a purchase's form; focus moves into the opened form, or back to the button that opens it. */
function toggleForm(p, action) {
  const closing = forms.get(p.id) === action;
  if (closing) closeForm(p.id);
  else forms.set(p.id, action);
  render();
  const target = closing ? `[data-owner="purchase:${p.id}"][data-action="${action}"]` : `#form-${p.id} select, #form-${p.id} input`;
  document.querySelector(target)?.focus();
}

/** "failure, success" → ["failure", "success"]; the API judges the words. */
const outcomesOf = (text) => text.split(/[\s,]+/).filter(Boolean).map((word) => word.toLowerCase());

/**
 * Whether the checkout offers `value` under `whitelist`, as the server decides (domain/payment-methods.ts
 * offeredMethods): `razer` is an umbrella, never paid with, that admits the razer_* wallets when the
 * whitelist names none of them.
 */
function offers(whitelist, value) {
  if (value === 'razer') return false;
  if (!whitelist || whitelist.includes(value)) return true;
  return value.startsWith('razer_') && whitelist.includes('razer') && !whitelist.some((name) => name.startsWith('razer_'));
}

/** The pay form under a purchase row (template #pay-form of dashboard.ts). */
function payForm(p, name) {
  const form = $('pay-form').content.firstElementChild.cloneNode(true);
  form.setAttribute('aria-label', `Pay ${name}`);
  const { method, save_token: save, token_outcomes: later } = form.elements;
  const offered = methods.get(`${p.brand_id}/${p.purchase.currency}`);
  for (const [value, label] of Object.entries(offered?.names ?? { visa: 'Visa' })) {
    if (offers(p.payment_method_whitelist, value)) method.append(el('option', { value }, label));
  }
  // The API saves the card of a force_recurring purchase whatever is sent.
  if (p.force_recurring) Object.assign(save, { checked: true, disabled: true });
  later.disabled = !save.checked;
  save.addEventListener('change', () => (later.disabled = !save.checked));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { method: method.value, outcome: form.elements.outcome.value };
    if (save.checked) body.save_token = true;
    if (save.checked && later.value.trim()) body.token_outcomes = outcomesOf(later.value);
    act(`purchase:${p.id}`, 'pay', async () => {
      const answer = await api('POST', `/sim/v1/purchases/${p.id}/pay`, body);
      closeForm(p.id);
      return payResult(answer);
    });
  });
  return form;
}

/** The refund form: the amount in the currency's units ("5.00"), sent in minor units; prefilled with all that is left. */
function refundForm(p, name) {
  const form = $('refund-form').content.firstElementChild.cloneNode(true);
  const { currency } = p.purchase;
  form.setAttribute('aria-label', `Refund ${name}`);
  form.querySelector('[data-currency]').textContent = currency;
  form.elements.amount.value = (p.refundable_amount / 10 ** digits(currency)).toFixed(digits(currency));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const amount = Math.round(Number(form.elements.amount.value.replace(',', '.')) * 10 ** digits(currency));
    act(`purchase:${p.id}`, 'refund', async () => {
      if (!Number.isFinite(amount) || amount <= 0) throw new Error(`Write the amount in ${currency}, such as 5.00.`);
      // The answer is the refund's Payment object, whose own `payment` holds the amount.
      const refund = await api('POST', purchasePath(p, 'refund'), { amount });
      closeForm(p.id);
      // It has no status: the sandbox's processing says whether the refund is still pending.
      if (stepsTakeTime()) return pendingResult(`Refund of ${money(refund.payment.amount, currency)}`, 'pending_refund');
      return `Refunded ${money(refund.payment.amount, currency)}.`;
    });
  });
  return form;
}

/** The row of a purchase's open form, built once and kept while it is open: what was typed survives the refresh after a refused request. */
function formRow(p, name) {
  const owner = `purchase:${p.id}`;
  let row = formRows.get(p.id);
  if (row?.dataset.form !== forms.get(p.id)) {
    const form = forms.get(p.id) === 'pay' ? payForm(p, name) : refundForm(p, name);
    form.querySelector('[data-close]').addEventListener('click', () => toggleForm(p, forms.get(p.id)));
    form.querySelector('button[type=submit]').dataset.owner = owner;
    row = el('tr', { class: 'form-row', id: `form-${p.id}`, 'data-form': forms.get(p.id) }, el('td', { colspan: 6 }, form));
    formRows.set(p.id, row);
  }
  row.querySelectorAll('button').forEach((button) => (button.disabled = busy.has(owner)));
  return row;
}

function closeForm(id) {
  forms.delete(id);
  formRows.delete(id);
}

/** PATCH the subscriber's status: pause an active one, resume a paused one. */
function subscriberAction(s, t, name) {
  const owner = `subscriber:${s.id}`;
  const pause = s.status === 'active';
  if (!pause && s.status !== 'subscription_paused') return [resultOf(owner)];
  const action = pause ? 'pause' : 'resume';
  const button = actionButton(owner, action, pause ? 'Pause' : 'Resume', name);
  button.addEventListener('click', () => act(owner, action, async () => {
    const after = await api('PATCH', `/api/v1/billing_templates/${t.id}/clients/${s.id}/`, { status: pause ? 'subscription_paused' : 'active' });
    return pause ? 'Paused: no purchases or invoices until resumed.' : `Resumed: next billing ${after.subscription_billing_scheduled_on ?? 'none'}.`;
  }));
  return [button, resultOf(owner)];
}

async function newSandbox() {
  const button = $('new-sandbox');
  button.disabled = true;
  $('new-sandbox-result').className = 'result';
  $('new-sandbox-result').textContent = 'Creating a sandbox…';
  try {
    const created = await api('POST', '/sim/v1/sandboxes', { fixtures: true }, { auth: false });
    $('new-sandbox-result').replaceChildren(`New sandbox ${created.id} (with fixtures), now in use. Its token: `, el('code', {}, created.token));
    await useToken(created.token, { keepResult: true });
  } catch (error) {
    $('new-sandbox-result').className = 'result error';
    $('new-sandbox-result').textContent = error instanceof ApiFailure ? error.first : error.message;
  } finally {
    button.disabled = false;
  }
}

/**
 * Replays a recording into a new sandbox (POST /ui/recordings) and switches to it. The file is sent
 * as it is: the server reads it as `billing-sim replay` does, a file cut short by a kill -9 included.
 */
async function loadRecording() {
  const input = $('recording-file');
  const file = input.files?.[0];
  if (!file) return;
  const result = $('recording-result');
  result.className = 'result';
  result.textContent = `Replaying ${file.name}…`;
  input.disabled = true;
  try {
    const response = await fetch('/ui/recordings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: await file.text() });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new ApiFailure('POST', '/ui/recordings', response.status, data);
    const drift = data.drift.count === 0 ? 'no drift' : `drift in ${data.drift.count} place(s), first: ${describeDifference(data.drift.listed[0])}`;
    result.replaceChildren(
      `${file.name}: ${data.replayed} of ${data.exchanges} exchange(s) replayed into sandbox ${data.sandbox_id}, now in use; ${drift}; `,
      `${data.unknowable.count} value(s) of the recorded account the simulator cannot know. Its token: `,
      el('code', {}, data.token),
    );
    await useToken(data.token, { keepResult: true });
  } catch (error) {
    result.className = 'result error';
    result.textContent = error instanceof ApiFailure ? error.first : error.message;
  } finally {
    input.disabled = false;
    input.value = '';
  }
}

/** One difference of a replay, in a line: where, and what each side had. */
function describeDifference(difference) {
  const where = [difference.operation, difference.path].filter(Boolean).join(' ');
  return `${where}: recorded ${difference.recorded}, replayed ${difference.replayed}`;
}

// ---------------------------------------------------------------- views
