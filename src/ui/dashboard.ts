// The QA dashboard at `/`: a server-rendered shell whose sections small static scripts (started by
// dashboard-browser.js, served as /ui/dashboard.js, no build step) fill by calling the API with
// the sandbox token (from the link's `#token=`, `?token=`, pasted here, or on a first visit on this
// machine's own address the default sandbox's, given by POST /ui/default-sandbox). The page holds no
// sandbox state of its own: everything it shows is what a client of the API sees, and every action
// is a request of the public API (/api/v1 or /sim/v1) with that token, after which it reads again.
// The forms an action needs (pay, refund, add a subscriber, send an invoice) are <template>s here and
// the forms that create (a client, a template) are in the page, so the markup stays in one place.
// Every control of a creating form is named by its path in the request body (`purchase.currency`),
// which is also the key under which the API's error body answers it (dashboard-create.js).

import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { html, page, raw, type SafeHtml } from './html.ts';

/**
 * The page's classic scripts, by the name each is served under (/ui/…) → its file beside this module,
 * in the order the page loads them: the others only define, and the view (dashboard.js) starts.
 */
const SCRIPTS: Record<string, string> = {
  'dashboard-base.js': 'dashboard-base.js',
  'dashboard-actions.js': 'dashboard-actions.js',
  'dashboard-create.js': 'dashboard-create.js',
  'dashboard-checkpoints.js': 'dashboard-checkpoints.js',
  'dashboard-sections.js': 'dashboard-sections.js',
  'dashboard-processing.js': 'dashboard-processing.js',
  'dashboard.js': 'dashboard-browser.js',
};

const ADVANCES = [
  { by: 'P1D', label: '+1 day' },
  { by: 'P7D', label: '+1 week' },
  { by: 'P1M', label: '+1 month' },
];

/**
 * Badge colours of purchase statuses (dashboard-sections.js sets `status-{status}`). Each pair keeps
 * a contrast of at least 4.5:1; the badge's words say the same, for readers who cannot tell colours.
 * Waiting statuses are blue, money reserved or in transit amber, money in green, money given back
 * teal or violet, trouble orange and red; `expired` is solid dark red, as nothing more can happen.
 * A pending step of the platform (`pending_charge`, `pending_capture`, `pending_release`,
 * `pending_refund`, `pending_execute`) is amber with a dashed border: in transit, not final yet. A card authorised
 * with no charge (`preauthorized`) is indigo. "settled" is an outlined mark beside `paid`.
 * Subscribers' statuses (`subscriber-{status}`) reuse the same meanings: active green, pending blue,
 * paused amber, inactive grey.
 */
const BADGES = `
  body { max-width: 72rem; }
  .badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; border: 1px solid; font-size: .85rem; white-space: nowrap; }
  .badge, .status-created, .status-cancelled, .subscriber-inactive { background: #eef0f3; color: #374151; border-color: #c5cad1; }
  .status-sent, .status-viewed, .subscriber-pending { background: #e0ecff; color: #1e3a8a; border-color: #9db8ee; }
  .status-hold, .status-pending_charge, .status-pending_execute, .status-pending_capture, .status-pending_release, .status-pending_refund, .subscriber-subscription_paused { background: #fff4d6; color: #713f00; border-color: #e5c46b; }
  .badge[class*=" status-pending_"] { border: 1px dashed #8a5a00; }
  .status-preauthorized { background: #e0e7ff; color: #312e81; border-color: #a5b4fc; }
  .status-paid, .subscriber-active { background: #dcf3e1; color: #14532d; border-color: #8fcb9d; }
  .status-refunded { background: #dcf3f1; color: #134e4a; border-color: #86c9c1; }
  .status-released { background: #ede9fe; color: #4c1d95; border-color: #b9a7ef; }
  .status-error { background: #fde2e1; color: #8b1a1a; border-color: #e5a09c; }
  .status-overdue { background: #ffedd5; color: #8a2c0d; border-color: #f0b27a; }
  .status-expired { background: #7f1d1d; color: #fff; border-color: #7f1d1d; }
  .status-cancelled { text-decoration: line-through; }
  .badge.marked-as-paid { background: #fff; color: #14532d; border: 1px dashed #2f7d46; }
  .badge.settled { background: #fff; color: #14532d; border: 1px solid #2f7d46; }
  .badge.chaos { background: #fff; color: #713f00; border: 1px dashed #b7791f; }
  #purchases tr[data-purchase] > td:is(:nth-child(1), :nth-child(3), :nth-child(5)) { white-space: nowrap; }
`;

/** Actions, their results in place, and the warnings of a subscriber that needs attention. */
const ACTIONS = `
  button.small { padding: .15rem .6rem; font-size: .9rem; }
  button:disabled { opacity: .55; cursor: progress; }
  .actions { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; margin-top: .3rem; }
  .result:empty { display: none; }
  .result { display: block; font-size: .9rem; margin-top: .25rem; color: #14532d; }
  .result.error { color: #8b1a1a; }
  .result code, #new-sandbox-result code { word-break: break-all; }
  tr.form-row > td { background: #f8fafc; }
  .action-form { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: end; }
  .action-form fieldset { margin: 0; padding: .15rem .75rem .35rem; }
  .action-form .choice { display: inline-block; margin-right: .75rem; }
  .action-form label.field { display: flex; flex-direction: column; font-size: .9rem; }
  .action-form select { font: inherit; padding: .3rem; }
  .action-form .hint { flex-basis: 100%; }
  .subscriber { border-top: 1px solid #e5e8ec; padding: .6rem 0; }
  .subscriber:first-of-type { border-top: 0; }
  .subscriber-head { display: flex; flex-wrap: wrap; gap: .4rem .75rem; align-items: center; }
  .subscriber-head .who { font-weight: 600; }
  .subscriber.attention { border-left: 4px solid #c2410c; padding-left: .75rem; }
  ul.warnings { margin: .35rem 0; padding: 0; list-style: none; }
  ul.warnings li { color: #7c2d12; background: #fff7ed; border: 1px solid #f0b27a; border-radius: 4px; padding: .15rem .5rem; margin: .2rem 0; }
  ul.warnings li::before { content: "⚠" / ""; margin-right: .35rem; }
  #attention { font-weight: 600; color: #7c2d12; }
  fieldset.needs-sandbox { border: 0; margin: 0; padding: 0; min-width: 0; }
  fieldset.needs-sandbox:disabled button { cursor: not-allowed; }
`;

/**
 * The creating forms and the API's messages beside their fields. A refused field is marked by a red
 * border and its message in words (aria-invalid and aria-describedby say the same to a screen reader).
 */
const CREATE = `
  h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
  .create-form { display: flex; flex-wrap: wrap; gap: .6rem 1.25rem; align-items: flex-start; }
  .create-form[hidden] { display: none; }
  .create-form > fieldset { flex-basis: 100%; display: flex; flex-wrap: wrap; gap: .6rem 1.25rem; margin: 0; }
  .create-form > fieldset[hidden] { display: none; }
  .create-form legend { flex-basis: 100%; }
  .create-form .field { display: flex; flex-direction: column; gap: .15rem; max-width: 22rem; }
  .create-form .field > label { font-size: .9rem; }
  .create-form .field.check { align-self: flex-end; padding-bottom: .4rem; }
  .create-form .field.check > label { display: flex; align-items: center; gap: .4rem; }
  .create-form .actions-line { flex-basis: 100%; display: flex; gap: .5rem; align-items: center; }
  .create-form select, .create-form input[type=number], .create-form input[type=email], .create-form input[type=datetime-local] {
    font: inherit; padding: .3rem .45rem; border: 1px solid #9aa3ad; border-radius: 4px; background: #fff; }
  .create-form > .hint { flex-basis: 100%; margin: -.25rem 0 0; }
  .create-form select:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  .create-form [aria-invalid=true] { border: 2px solid #b42318; }
  .field-error { color: #8b1a1a; font-size: .85rem; margin: .2rem 0 0; }
  .field-error::before { content: "✖" / ""; margin-right: .3rem; }
  ul.form-errors { flex-basis: 100%; margin: 0; padding: .4rem .75rem; list-style: none; color: #8b1a1a; background: #fdecea; border: 1px solid #e0a39d; border-radius: 6px; }
  ul.form-errors[hidden] { display: none; }
  #clients details > summary { cursor: pointer; }
  #templates tr[data-template] > td:last-child { min-width: 14rem; }
`;

/**
 * A labelled control in a creating form; the API's message for it is added to the same `.field`. The
 * label does not wrap the control, whose name would then take in a select's chosen option ("Client
 * Choose a client…"): dashboard-create.js links the two by id, unique for each form it clones.
 */
const field = (label: string | SafeHtml, control: SafeHtml) => html`<div class="field"><label>${label}</label> ${control}</div>`;
/** A checkbox: a boolean of the body, always sent (checked or not). */
const check = (label: string, control: SafeHtml) => html`<div class="field check"><label>${control} ${label}</label></div>`;
const FORM_ERRORS = html`<ul class="form-errors" tabindex="-1" hidden></ul>`;
const UNITS = ['days', 'weeks', 'months'];
const units = (name: string, chosen: string) =>
  html`<select name="${name}">${UNITS.map((unit) => html`<option value="${unit}" ${unit === chosen ? raw('selected') : ''}>${unit}</option>`)}</select>`;

/** POST /api/v1/clients/: an e-mail (or bank details) is what the API requires; the rest is the cheap part of a client. */
const CLIENT_FORM = html`<h3 id="new-client-heading">New client</h3>
<form id="client-form" class="create-form" aria-labelledby="new-client-heading" novalidate>
  ${FORM_ERRORS}
  ${field('E-mail', html`<input type="email" name="email" size="28" autocomplete="off" spellcheck="false">`)}
  ${field('Full name', html`<input type="text" name="full_name" size="24" autocomplete="off">`)}
  ${field('Phone', html`<input type="text" name="phone" size="16" autocomplete="off">`)}
  ${field('Country (ISO code)', html`<input type="text" name="country" size="4" autocomplete="off" placeholder="DE">`)}
  <div class="actions-line"><button type="submit">Create client</button></div>
</form>
<p id="client-result" class="result" role="status" aria-live="polite"></p>`;

/**
 * POST /api/v1/billing_templates/: the kind chooses which fieldset is sent (the other is disabled, so
 * the API never sees a read-only field). Prefilled with the spec's defaults of the cycle fields.
 */
const TEMPLATE_FORM = html`<h3 id="new-template-heading">New billing template</h3>
<form id="template-form" class="create-form" aria-labelledby="new-template-heading" novalidate>
  ${FORM_ERRORS}
  <fieldset><legend>Kind</legend>
    <label class="choice"><input type="radio" name="is_subscription" value="true" data-type="boolean" checked> Subscription (recurring invoices)</label>
    <label class="choice"><input type="radio" name="is_subscription" value="false" data-type="boolean"> One-time invoices</label>
  </fieldset>
  ${field('Title', html`<input type="text" name="title" size="24" autocomplete="off">`)}
  ${field('Product', html`<input type="text" name="purchase.products.0.name" size="20" autocomplete="off">`)}
  ${field('Unit price', html`<input type="text" name="purchase.products.0.price" data-type="money" size="10" inputmode="decimal" placeholder="29.90" aria-describedby="price-hint">`)}
  ${field('Currency', html`<input type="text" name="purchase.currency" size="5" value="EUR" autocomplete="off">`)}
  ${field('Time zone', html`<input type="text" name="purchase.timezone" size="16" placeholder="UTC" autocomplete="off">`)}
  <p class="hint" id="price-hint">Prices in the currency's units (29.90), sent in minor units (2990).</p>
  ${check('Always save the card (force_recurring)', html`<input type="checkbox" name="force_recurring">`)}
  <fieldset data-kind="true"><legend>Subscription</legend>
    ${field('Billing period', html`<input type="number" name="subscription_period" value="1" min="1" max="256">`)}
    ${field('Period unit', units('subscription_period_units', 'months'))}
    ${field('Due period', html`<input type="number" name="subscription_due_period" value="7" min="1" max="256">`)}
    ${field('Due period unit', units('subscription_due_period_units', 'days'))}
    ${field('Trial periods', html`<input type="number" name="subscription_trial_periods" value="0" min="0" max="256">`)}
    ${check('Charge at the end of each period', html`<input type="checkbox" name="subscription_charge_period_end">`)}
  </fieldset>
  <fieldset data-kind="false" hidden disabled><legend>One-time invoice</legend>
    ${field('Due (UTC)', html`<input type="datetime-local" name="due" data-type="instant">`)}
    ${field('Issued (date)', html`<input type="date" name="issued">`)}
    ${check('Authorise only (skip_capture)', html`<input type="checkbox" name="skip_capture">`)}
    ${check('Send a receipt', html`<input type="checkbox" name="send_receipt">`)}
  </fieldset>
  <div class="actions-line"><button type="submit">Create template</button></div>
</form>
<p id="template-result" class="result" role="status" aria-live="polite"></p>`;

const CLIENT_CHOICE = field('Client', html`<select name="client_id"></select>`);
const METHODS = field('Payment methods', html`<input type="text" name="payment_method_whitelist" data-type="list" size="20" placeholder="all, or: visa, mastercard" autocomplete="off">`);

/** POST /api/v1/billing_templates/{id}/add_subscriber/, opened under a subscription template's row. */
const SUBSCRIBER_FORM = html`<template id="subscriber-form">
  <form class="create-form" data-form="subscriber" novalidate>
    ${FORM_ERRORS}
    ${CLIENT_CHOICE}
    ${field('Start of the billing cycle', html`<input type="date" name="subscription_deduction_date">`)}
    ${field('Mandate expires', html`<input type="date" name="mandate_expiry_date">`)}
    ${field('First deduction (optional)', html`<input type="date" name="subscription_first_deduction_date">`)}
    ${field(html`First deduction amount (<span data-currency></span>)`, html`<input type="text" name="subscription_first_deduction_amount" data-type="money" size="10" inputmode="decimal">`)}
    ${field('Service type', html`<select name="default_service_type"><option value="TWODAY" selected>TWODAY</option><option value="ONEDAY">ONEDAY</option></select>`)}
    ${METHODS}
    ${check('Receipt when a charge succeeds', html`<input type="checkbox" name="send_receipt" checked>`)}
    ${check('Invoice when a charge fails', html`<input type="checkbox" name="send_invoice_on_charge_failure" checked>`)}
    ${check('E-mail the first invoice now', html`<input type="checkbox" name="send_invoice_on_add_subscriber">`)}
    <p class="hint">Dates are days in the template's time zone; the cycle starts at least 4 days after today.</p>
    <div class="actions-line"><button type="submit" class="small">Add subscriber</button> <button type="button" class="small secondary" data-close>Cancel</button></div>
  </form>
</template>`;

/** POST /api/v1/billing_templates/{id}/send_invoice/, opened under a one-time template's row. */
const INVOICE_FORM = html`<template id="invoice-form">
  <form class="create-form" data-form="invoice" novalidate>
    ${FORM_ERRORS}
    ${CLIENT_CHOICE}
    ${METHODS}
    <div class="actions-line"><button type="submit" class="small">Send invoice</button> <button type="button" class="small secondary" data-close>Cancel</button></div>
  </form>
</template>`;

function section(id: string, title: string, hint: string) {
  return html`<section aria-labelledby="${id}-heading">
  <h2 id="${id}-heading">${title}</h2>
  <div id="${id}"><p class="hint">${hint}</p></div>
</section>`;
}

/** The pay form a purchase row opens: the fields of POST /sim/v1/purchases/{id}/pay. Labels wrap their controls, so a clone needs no ids. */
const PAY_FORM = html`<template id="pay-form">
  <form class="action-form" data-form="pay">
    <label class="field">Payment method <select name="method"></select></label>
    <fieldset><legend>This payment</legend>
      <label class="choice"><input type="radio" name="outcome" value="success" checked> approved</label>
      <label class="choice"><input type="radio" name="outcome" value="failure"> declined</label>
    </fieldset>
    <label class="choice"><input type="checkbox" name="save_token"> Save the card</label>
    <label class="field">Later charges with the saved card <input type="text" name="token_outcomes" size="22" placeholder="failure, success" disabled></label>
    <button type="submit" class="small">Pay</button>
    <button type="button" class="small secondary" data-close>Cancel</button>
    <p class="hint">Later charges: one outcome per charge with the saved card, in order, the last repeating ("failure, success": declined once, then fine; a decline code such as expired_card declines with that reason). Empty: every charge succeeds.</p>
  </form>
</template>`;

/** The refund form: POST /api/v1/purchases/{id}/refund/ with an amount in the currency's units. */
const REFUND_FORM = html`<template id="refund-form">
  <form class="action-form" data-form="refund">
    <label class="field"><span>Amount to refund (<span data-currency></span>)</span> <input type="text" name="amount" size="10" inputmode="decimal" required></label>
    <button type="submit" class="small">Refund</button>
    <button type="button" class="small secondary" data-close>Cancel</button>
  </form>
</template>`;

/**
 * A first visit (no token in the link or in this browser) says, once, how to choose a sandbox: on this
 * machine's own address the default sandbox in one click first (POST /ui/default-sandbox answers it
 * only to this page, default-sandbox.ts), then pasting a token as the other way ("Or paste…"); on any
 * other address pasting is the way ("Paste…"). dashboard-browser.js shows the one-click paragraph
 * and words the lead of the other to match, so the box never gives two instructions at once.
 */
const FIRST_VISIT = html`<div id="first-visit" class="alert info" hidden>
  <p><strong>Choose a sandbox to begin.</strong> The clock, clients, templates and purchases below are those of one sandbox.</p>
  <p id="one-click" hidden><button type="button" id="use-default">Use the default sandbox</button>
    <span class="hint">The sandbox the simulator made when it started: this page is open on this machine's own address, so the simulator can hand it the token itself.</span></p>
  <p id="one-click-result" class="result" role="status" aria-live="polite"></p>
  <p id="paste-token"><span id="paste-lead">Paste</span> a sandbox's token into the field below: when the simulator started, its terminal
    printed the default sandbox's token on the line <code>bearer token   eyJ…</code> (in a container: <code>docker logs</code>).
    "New sandbox with fixtures", under the field, makes a fresh sandbox instead.</p>
</div>`;

/**
 * The controls that act on the sandbox in use, each group wrapped in one of these: disabled (with all
 * it holds) until a sandbox is read, so that "+1 day" or "Save processing" cannot be pressed before
 * there is a sandbox to act on (dashboard-browser.js enables them). A fieldset's own disabled state
 * leaves the controls' own, which an action under way sets and clears, as it is.
 */
const needsSandbox = (controls: SafeHtml) => html`<fieldset class="needs-sandbox" disabled>${controls}</fieldset>`;

/**
 * PUT /sim/v1/processing: how long the platform's pending steps last and when a paid purchase is
 * settled, both ISO-8601 durations of sandbox time. An empty settlement sends null: never settled.
 */
const PROCESSING_FORM = html`<form id="processing-form" class="create-form" aria-labelledby="processing-heading" novalidate>
  ${FORM_ERRORS}
  ${field('Pending steps last', html`<input type="text" name="delay" size="10" autocomplete="off" spellcheck="false" placeholder="PT0S" aria-describedby="processing-hint">`)}
  ${field('Settle paid purchases after', html`<input type="text" name="settlement" size="10" autocomplete="off" spellcheck="false" placeholder="never" aria-describedby="processing-hint">`)}
  <p class="hint" id="processing-hint">Durations of sandbox time: PT0S (at once), PT2S, PT1H, P1D. A capture, release, refund or token
    deletion shows its pending state (pending_capture, …) that long; an empty settlement: never settled (no purchase.settled).</p>
  <div class="actions-line"><button type="submit">Save processing</button></div>
</form>
<p id="processing-result" class="result" role="status" aria-live="polite"></p>`;

export function dashboardPage(): string {
  return page(
    'billing-sim · QA dashboard',
    html`<header class="brand">billing-sim · QA dashboard</header>
<main>
  <h1>QA dashboard</h1>
  <section aria-labelledby="sandbox-heading">
    <h2 id="sandbox-heading">Sandbox</h2>
    ${FIRST_VISIT}
    <form id="token-form" class="row">
      <label for="token">Sandbox token (bearer JWT)</label>
      <input type="text" id="token" name="token" size="48" autocomplete="off" spellcheck="false" required aria-describedby="token-hint">
      <button type="submit">Use this sandbox</button>
      <button type="button" id="forget" class="secondary">Forget token</button>
    </form>
    <p class="hint" id="token-hint">The token in use is kept in this browser (localStorage) and in this page's address
      (<code>#token=…</code>): copy the address to share the sandbox. <code>POST /sim/v1/sandboxes</code> answers a new
      sandbox's token; the <a href="/docs">API reference</a> can try requests.</p>
    <p id="message" role="status" aria-live="polite"></p>
    <div class="row">
      <button type="button" id="new-sandbox" class="secondary">New sandbox with fixtures</button>
      <span class="hint">Five clients, a monthly template and a one-time template; the dashboard switches to it.</span>
    </div>
    <p id="new-sandbox-result" class="result" role="status" aria-live="polite"></p>
    <div class="row">
      <label for="recording-file">Load a recording (.har)</label>
      <input type="file" id="recording-file" accept=".har,.json,application/json">
      <span class="hint">A recording of <code>billing-sim proxy --record</code>, replayed into a new sandbox: the objects
        it made, at their end state; the dashboard switches to it (the package's <code>docs/recordings.md</code>: "Checking billing-sim against your
        account").</span>
    </div>
    <p id="recording-result" class="result" role="status" aria-live="polite"></p>
  </section>
  <section aria-labelledby="clock-heading">
    <h2 id="clock-heading">Clock</h2>
    <p>Sandbox time: <output id="clock-now">—</output> <span id="clock-frozen"></span></p>
    ${needsSandbox(html`<div class="row" role="group" aria-label="Advance the clock by">
      ${ADVANCES.map((step) => html`<button type="button" class="advance" data-by="${step.by}">${step.label}</button>`)}
    </div>
    <form id="advance-form" class="row">
      <label for="advance-date">Advance to date (00:00 UTC)</label>
      <input type="date" id="advance-date" name="to" required>
      <button type="submit">Advance to date</button>
    </form>`)}
    <p id="processed" class="hint" role="status" aria-live="polite"></p>
  </section>
  <section aria-labelledby="clients-heading">
    <h2 id="clients-heading">Clients</h2>
    <div id="clients"><p class="hint">The sandbox's clients, newest first.</p></div>
    ${needsSandbox(CLIENT_FORM)}
  </section>
  <section aria-labelledby="templates-heading">
    <h2 id="templates-heading">Billing templates</h2>
    <div id="templates"><p class="hint">The sandbox's billing templates: add a subscriber to one, or send an invoice of it.</p></div>
    ${needsSandbox(TEMPLATE_FORM)}
  </section>
  <section aria-labelledby="subscribers-heading">
    <h2 id="subscribers-heading">Subscribers</h2>
    <p id="attention"></p>
    <div id="subscribers"><p class="hint">Each subscriber has a timeline of its purchases, charges, e-mails and events.</p></div>
  </section>
  ${section('purchases', 'Purchases', 'Every purchase of the sandbox, newest first: its status, what can still be refunded, and what happened to the money.')}
  ${section('outbox', 'Outbox', 'The e-mails the sandbox "sent".')}
  ${section('deliveries', 'Webhook deliveries', 'Deliveries to webhooks and success_callbacks, newest first; a mark shows one that delivery chaos sent twice or late.')}
  <section aria-labelledby="checkpoints-heading">
    <h2 id="checkpoints-heading">Checkpoints</h2>
    ${needsSandbox(html`<form id="checkpoint-form" class="row">
      <label for="checkpoint-name">Name (optional)</label>
      <input type="text" id="checkpoint-name" name="name" maxlength="100" size="30" autocomplete="off">
      <button type="submit">Take checkpoint</button>
    </form>`)}
    <p id="checkpoint-result" class="result" role="status" aria-live="polite"></p>
    <div id="checkpoints"><p class="hint">The whole sandbox, clock included, kept to go back to: try one path past a renewal, restore, try another.</p></div>
  </section>
  <section aria-labelledby="processing-heading">
    <h2 id="processing-heading">Processing</h2>
    <p id="processing-now" class="hint"></p>
    ${needsSandbox(PROCESSING_FORM)}
  </section>
</main>
${PAY_FORM}
${REFUND_FORM}
${SUBSCRIBER_FORM}
${INVOICE_FORM}
${Object.keys(SCRIPTS).map((name) => html`<script src="/ui/${name}" defer></script>
`)}`,
    html`<style>${raw(BADGES + ACTIONS + CREATE)}</style>`,
  );
}

export function dashboardRouter(): Router {
  const router = express.Router();
  router.get('/', (_req, res) => void res.type('html').send(dashboardPage()));
  for (const [name, file] of Object.entries(SCRIPTS)) {
    const path = fileURLToPath(new URL(`./${file}`, import.meta.url));
    router.get(`/ui/${name}`, (_req, res) => res.type('text/javascript').sendFile(path));
  }
  return router;
}
