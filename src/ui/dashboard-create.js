// The QA dashboard's creating forms (served as /ui/dashboard-create.js after dashboard-actions.js
// and before /ui/dashboard.js, no build step): a client, a billing template, a subscriber of a
// subscription template and a one-time invoice, plus the list of clients. Like dashboard-actions.js
// this file only defines and wires its forms; dashboard-browser.js renders the view (its sections:
// dashboard-sections.js) and calls in here.
//
// Each control is named by its path in the request body (`purchase.products.0.price`), which is also
// the key under which the API's error body answers it: a refused field gets its message beside it,
// and `__all__`, or a field the form does not show, goes to the list at the form's top. Nothing is
// checked here (the forms are `novalidate`): an empty field is left out of the body, so the API's
// default applies or the API says it is required; its messages are the only judge.

// ---------------------------------------------------------------- a form's body

/** Decimal text in a currency's units → minor units ("29.90" EUR → 2990); any other text is sent as typed, for the API to judge. */
function minorUnits(text, currency) {
  const decimal = text.replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(decimal) ? Math.round(Number(decimal) * 10 ** digits(currency)) : text;
}

/** A control's value as the body sends it, or undefined to leave the field out. `data-type` says how text becomes JSON. */
function valueOf(control, form) {
  if (control.type === 'checkbox') return control.checked;
  const text = control.value.trim();
  if (text === '') return undefined;
  switch (control.dataset.type ?? control.type) {
    case 'boolean':
      return text === 'true';
    case 'number':
      return Number(text);
    case 'money': // in the currency of the form (the template form's field) or of its template
      return minorUnits(text, form.elements['purchase.currency']?.value.trim() || form.dataset.currency || 'MYR');
    case 'instant': // a datetime-local read as UTC, as the dashboard shows every time: Unix seconds
      return Date.parse(`${text}Z`) / 1000;
    case 'list': // "visa, mastercard" → ["visa", "mastercard"]
      return text.split(/[\s,]+/).filter(Boolean);
    default:
      return text;
  }
}

/** Sets `body.purchase.products[0].price` for the path "purchase.products.0.price". */
function put(body, path, value) {
  const keys = path.split('.');
  let node = body;
  keys.slice(0, -1).forEach((key, index) => {
    node[key] ??= /^\d+$/.test(keys[index + 1]) ? [] : {};
    node = node[key];
  });
  node[keys.at(-1)] = value;
}

/** The request body of a form: its named, enabled controls (a disabled fieldset's are not sent), checked radios only. */
function bodyOf(form) {
  const body = {};
  for (const control of form.elements) {
    if (!control.name || control.matches(':disabled') || (control.type === 'radio' && !control.checked)) continue;
    const value = valueOf(control, form);
    if (value !== undefined) put(body, control.name, value);
  }
  return body;
}

// ---------------------------------------------------------------- the API's messages beside the fields

/**
 * The controls an error key names: the one of that path; else the one whose path it is inside
 * (`payment_method_whitelist.1` → the list's field); else the first inside it (`purchase.products`,
 * "required", → the product's name). None: the message goes to the form's top.
 */
function controlsFor(form, key) {
  const named = [...form.elements].filter((control) => control.name && !control.matches(':disabled'));
  const exact = named.filter((control) => control.name === key);
  if (exact.length) return exact;
  const outer = named.find((control) => key.startsWith(`${control.name}.`));
  const inner = named.find((control) => control.name.startsWith(`${key}.`));
  return outer ? [outer] : inner ? [inner] : [];
}

let errorNotes = 0;
const ERROR_ID = 'field-error-';

function clearErrors(form) {
  for (const note of form.querySelectorAll('.field-error')) note.remove();
  for (const control of form.querySelectorAll('[aria-invalid]')) {
    control.removeAttribute('aria-invalid');
    const kept = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && !id.startsWith(ERROR_ID));
    if (kept.length) control.setAttribute('aria-describedby', kept.join(' '));
    else control.removeAttribute('aria-describedby');
  }
  const top = form.querySelector('.form-errors');
  top.replaceChildren();
  top.hidden = true;
}

/**
 * Writes each field's messages beside it (aria-invalid, and aria-describedby naming the message), the
 * rest at the top, and moves focus there: to the top list when it says something, else to the first
 * refused field, whose description a screen reader then reads.
 */
function showErrors(form, errors) {
  const top = [];
  for (const [key, details] of Object.entries(errors)) {
    const messages = (Array.isArray(details) ? details : []).map((detail) => detail?.message ?? String(detail));
    const controls = key === '__all__' ? [] : controlsFor(form, key);
    if (!controls.length) {
      top.push(...messages.map((message) => (key === '__all__' ? message : `${key}: ${message}`)));
      continue;
    }
    const note = el('p', { class: 'field-error', id: `${ERROR_ID}${++errorNotes}`, 'data-field': key }, messages.join(' '));
    controls[0].closest('.field, fieldset').append(note);
    for (const control of controls) {
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', [control.getAttribute('aria-describedby'), note.id].filter(Boolean).join(' '));
    }
  }
  const list = form.querySelector('.form-errors');
  list.replaceChildren(...top.map((message) => el('li', {}, message)));
  list.hidden = !top.length;
  (top.length ? list : form.querySelector('[aria-invalid=true]'))?.focus();
}

/** Links each `.field`'s label to its control by an id made of `prefix` and the control's name ("client-email"). */
function labelFields(form, prefix) {
  for (const label of form.querySelectorAll('.field > label:not(:has(input))')) {
    const control = label.parentElement.querySelector('input, select');
    control.id = `${prefix}-${control.name}`;
    label.htmlFor = control.id;
  }
}

/** Writes a result into a `role=status` element. */
const reportIn = (node) => (text, error = false) => {
  node.textContent = text;
  node.classList.toggle('error', error);
};

/**
 * Sends a creating form with `send(body)`, its buttons disabled meanwhile. Refused: each field's
 * message beside it and the API's first message reported, what was typed left as it was. Done: the
 * answer's description reported, the form reset for the next one, the view read again, and focus
 * on the form's first field (a form under a template row was drawn anew by that read).
 */
async function submitForm(form, report, send) {
  const buttons = form.querySelectorAll('button');
  clearErrors(form);
  buttons.forEach((button) => (button.disabled = true));
  report('Working…');
  try {
    const text = await send(bodyOf(form));
    form.reset();
    // A reset fires no change event; the template form shows the fields of the kind it was reset to on one.
    form.dispatchEvent(new Event('change'));
    report(text);
  } catch (error) {
    if (error instanceof ApiFailure && error.errors) showErrors(form, error.errors);
    report(error instanceof ApiFailure ? error.first : error.message, true);
    return;
  } finally {
    buttons.forEach((button) => (button.disabled = false));
  }
  await refresh({ quiet: true });
  if (document.activeElement === document.body || form.contains(document.activeElement)) form.querySelector('input, select')?.focus();
}

// ---------------------------------------------------------------- clients

/** Whether the tester opened or closed a long list of clients; one of up to 20 is always shown. */
let clientsOpen;

function renderClients(clients) {
  const all = [...clients.values()];
  const list = table('Clients', ['E-mail', 'Full name', 'Id', 'Created (UTC)'],
    all.map((c) => [c.email || '—', c.full_name || '—', el('code', {}, c.id), at(c.created_on)]), (index) => ({ 'data-client': all[index].id }));
  if (all.length <= 20) return $('clients').replaceChildren(list);
  const details = el('details', { open: clientsOpen ?? false }, el('summary', {}, `${all.length} clients`), list);
  details.addEventListener('toggle', () => (clientsOpen = details.open));
  $('clients').replaceChildren(details);
}

async function createClient(body) {
  const client = await api('POST', '/api/v1/clients/', body);
  return `Created the client ${client.email || client.full_name || client.id} (id ${client.id}).`;
}

// ---------------------------------------------------------------- billing templates

/**
 * The sandbox's brand, which a template needs (`brand_id`): a template or purchase of the sandbox
 * carries it; an empty sandbox's comes from GET /sim/v1/sandbox.
 */
async function brandOf() {
  return view?.templates[0]?.brand_id ?? view?.purchases[0]?.brand_id ?? (await api('GET', '/sim/v1/sandbox')).brand_id;
}

/** Shows the fieldset of the chosen kind; the other is disabled, so its fields (read-only for this kind) are not sent. */
function showKind(form) {
  const kind = form.elements.is_subscription.value;
  for (const fieldset of form.querySelectorAll('fieldset[data-kind]')) fieldset.hidden = fieldset.disabled = fieldset.dataset.kind !== kind;
}

async function createTemplate(body) {
  const t = await api('POST', '/api/v1/billing_templates/', { brand_id: await brandOf(), ...body });
  const kind = t.is_subscription ? 'subscription' : 'one-time';
  return `Created the ${kind} template ${t.title || t.id} (id ${t.id}), ${money(t.purchase.total, t.purchase.currency)}.`;
}

/** The page's own creating forms (a client, a template), each answering in its section's `role=status` element; called once at the start. */
function wireCreateForms() {
  for (const [form, result, send] of [['client-form', 'client-result', createClient], ['template-form', 'template-result', createTemplate]]) {
    labelFields($(form), form.replace(/-form$/, ''));
    $(form).addEventListener('submit', (event) => {
      event.preventDefault();
      submitForm($(form), reportIn($(result)), send);
    });
  }
  $('template-form').addEventListener('change', () => showKind($('template-form')));
}

// ---------------------------------------------------------------- a template's subscriber or invoice

const templateForms = new Map(); // template id → the form open under its row: 'subscriber' | 'invoice'
const templateFormRows = new Map(); // template id → that form's row, kept while open: what was typed and the API's messages survive a refresh

/** "Add subscriber…" on a subscription template, "Send invoice…" on a one-time one: each opens its form under the row. */
function templateActions(t, name) {
  const owner = `template:${t.id}`;
  const action = t.is_subscription ? 'subscriber' : 'invoice';
  const button = actionButton(owner, action, t.is_subscription ? 'Add subscriber…' : 'Send invoice…', t.is_subscription ? `to ${name}` : `of ${name}`, {
    'aria-expanded': String(templateForms.has(t.id)), 'aria-controls': `template-form-${t.id}`,
  });
  button.addEventListener('click', () => toggleTemplateForm(t, action));
  return [el('div', { class: 'actions' }, button), resultOf(owner)];
}

/** Opens or closes a template's form; focus moves into the opened form, or back to the button that opens it. */
function toggleTemplateForm(t, action) {
  const closing = templateForms.has(t.id);
  if (closing) {
    templateForms.delete(t.id);
    templateFormRows.delete(t.id);
  } else templateForms.set(t.id, action);
  render();
  document.querySelector(closing ? `[data-owner="template:${t.id}"][data-action="${action}"]` : `#template-form-${t.id} select`)?.focus();
}

/** The sandbox's clients as the options of a client choice; the chosen one stays chosen across refreshes. */
function clientOptions(select, clients) {
  const chosen = select.value;
  select.replaceChildren(el('option', { value: '' }, 'Choose a client…'),
    ...[...clients.values()].map((c) => el('option', { value: c.id }, c.full_name ? `${c.email || c.id} (${c.full_name})` : c.email || c.id)));
  select.value = chosen;
}

const emailOf = (clientId) => view?.clients.get(clientId)?.email || clientId;

/** What add_subscriber did: a pending subscriber waits for its first purchase to be paid, an active one for its first billing. */
const addSubscriberTo = (t) => async (body) => {
  const { billing_template_client: s, purchase: p } = await api('POST', `/api/v1/billing_templates/${t.id}/add_subscriber/`, body);
  if (s.status === 'pending' && p) return `Added ${emailOf(s.client_id)}: pending until its first purchase (${money(p.purchase.total, p.purchase.currency)}, ${p.status}) is paid.`;
  return `Added ${emailOf(s.client_id)}: ${s.status}, next billing ${s.subscription_billing_scheduled_on ?? 'none'}.`;
};

const sendInvoiceOf = (t) => async (body) => {
  const p = await api('POST', `/api/v1/billing_templates/${t.id}/send_invoice/`, body);
  return `Invoice sent to ${p.client?.email || emailOf(p.client_id)}: ${money(p.purchase.total, p.purchase.currency)}, purchase ${p.id} (${p.status}).`;
};

/** The row of a template's open form (template #subscriber-form or #invoice-form of dashboard.ts), built once while it is open. */
function templateFormRow(t, name, clients) {
  let row = templateFormRows.get(t.id);
  if (!row) {
    const owner = `template:${t.id}`;
    const form = $(t.is_subscription ? 'subscriber-form' : 'invoice-form').content.firstElementChild.cloneNode(true);
    form.setAttribute('aria-label', t.is_subscription ? `Add a subscriber to ${name}` : `Send an invoice of ${name}`);
    form.dataset.currency = t.purchase.currency;
    form.querySelector('[data-currency]')?.replaceChildren(t.purchase.currency);
    labelFields(form, `template-${t.id}`);
    form.querySelector('[data-close]').addEventListener('click', () => toggleTemplateForm(t, templateForms.get(t.id)));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submitForm(form, (text, error) => show(owner, text, error), t.is_subscription ? addSubscriberTo(t) : sendInvoiceOf(t));
    });
    row = el('tr', { class: 'form-row', id: `template-form-${t.id}` }, el('td', { colspan: 6 }, form));
    templateFormRows.set(t.id, row);
  }
  clientOptions(row.querySelector('select[name=client_id]'), clients);
  return row;
}

/** On a switch of sandbox: no template's form stays open, and no message of the last sandbox stays shown. */
function forgetForms() {
  templateForms.clear();
  templateFormRows.clear();
  clientsOpen = undefined;
  for (const form of ['client-form', 'template-form']) clearErrors($(form));
  for (const id of ['client-result', 'template-result']) reportIn($(id))('');
}
