// The QA dashboard at `/`: a server-rendered shell whose sections a small static script
// (dashboard-browser.js, served as /ui/dashboard.js, no build step) fills by calling the API with
// the sandbox token (from the link's `#token=`, `?token=`, or pasted here). The page holds no
// sandbox state of its own: everything it shows is what a client of the API sees, and every action
// is a request of the public API (/api/v1 or /sim/v1) with that token, after which it reads again.
// The forms an action needs (pay, refund) are <template>s here, so the markup stays in one place.

import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { html, page, raw } from './html.ts';

const SCRIPT = fileURLToPath(new URL('./dashboard-browser.js', import.meta.url));
const ACTIONS_SCRIPT = fileURLToPath(new URL('./dashboard-actions.js', import.meta.url));

const ADVANCES = [
  { by: 'P1D', label: '+1 day' },
  { by: 'P7D', label: '+1 week' },
  { by: 'P1M', label: '+1 month' },
];

/**
 * Badge colours of purchase statuses (dashboard-browser.js sets `status-{status}`). Each pair keeps
 * a contrast of at least 4.5:1; the badge's words say the same, for readers who cannot tell colours.
 * Waiting statuses are blue, money reserved or in transit amber, money in green, money given back
 * teal or violet, trouble orange and red; `expired` is solid dark red, as nothing more can happen.
 * Subscribers' statuses (`subscriber-{status}`) reuse the same meanings: active green, pending blue,
 * paused amber, inactive grey.
 */
const BADGES = `
  body { max-width: 72rem; }
  .badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; border: 1px solid; font-size: .85rem; white-space: nowrap; }
  .badge, .status-created, .status-cancelled, .subscriber-inactive { background: #eef0f3; color: #374151; border-color: #c5cad1; }
  .status-sent, .status-viewed, .subscriber-pending { background: #e0ecff; color: #1e3a8a; border-color: #9db8ee; }
  .status-hold, .status-pending_execute, .subscriber-subscription_paused { background: #fff4d6; color: #713f00; border-color: #e5c46b; }
  .status-paid, .subscriber-active { background: #dcf3e1; color: #14532d; border-color: #8fcb9d; }
  .status-refunded { background: #dcf3f1; color: #134e4a; border-color: #86c9c1; }
  .status-released { background: #ede9fe; color: #4c1d95; border-color: #b9a7ef; }
  .status-error { background: #fde2e1; color: #8b1a1a; border-color: #e5a09c; }
  .status-overdue { background: #ffedd5; color: #8a2c0d; border-color: #f0b27a; }
  .status-expired { background: #7f1d1d; color: #fff; border-color: #7f1d1d; }
  .status-cancelled { text-decoration: line-through; }
  .badge.marked-as-paid { background: #fff; color: #14532d; border: 1px dashed #2f7d46; }
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
`;

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
    <p class="hint">Later charges: one outcome per charge with the saved card, in order, the last repeating ("failure, success": declined once, then fine). Empty: every charge succeeds.</p>
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

export function dashboardPage(): string {
  return page(
    'billing-sim · QA dashboard',
    html`<header class="brand">billing-sim · QA dashboard</header>
<main>
  <h1>QA dashboard</h1>
  <section aria-labelledby="sandbox-heading">
    <h2 id="sandbox-heading">Sandbox</h2>
    <form id="token-form" class="row">
      <label for="token">Sandbox token (bearer JWT)</label>
      <input type="text" id="token" name="token" size="48" autocomplete="off" spellcheck="false" required aria-describedby="token-hint">
      <button type="submit">Use this sandbox</button>
      <button type="button" id="forget" class="secondary">Forget token</button>
    </form>
    <p class="hint" id="token-hint">The token in use is kept in this browser (localStorage) and in this page's address
      (<code>#token=…</code>): copy the address to share the sandbox. <code>npm start</code> prints the default sandbox's
      token; <code>POST /sim/v1/sandboxes</code> answers a new sandbox's. The <a href="/docs">API reference</a> can try requests.</p>
    <p id="message" role="status" aria-live="polite"></p>
    <div class="row">
      <button type="button" id="new-sandbox" class="secondary">New sandbox with fixtures</button>
      <span class="hint">Five clients, a monthly template and a one-time template; the dashboard switches to it.</span>
    </div>
    <p id="new-sandbox-result" class="result" role="status" aria-live="polite"></p>
  </section>
  <section aria-labelledby="clock-heading">
    <h2 id="clock-heading">Clock</h2>
    <p>Sandbox time: <output id="clock-now">—</output> <span id="clock-frozen"></span></p>
    <div class="row" role="group" aria-label="Advance the clock by">
      ${ADVANCES.map((step) => html`<button type="button" class="advance" data-by="${step.by}">${step.label}</button>`)}
    </div>
    <form id="advance-form" class="row">
      <label for="advance-date">Advance to date (00:00 UTC)</label>
      <input type="date" id="advance-date" name="to" required>
      <button type="submit">Advance to date</button>
    </form>
    <p id="processed" class="hint" role="status" aria-live="polite"></p>
  </section>
  ${section('templates', 'Billing templates', 'Paste a token to see the sandbox.')}
  <section aria-labelledby="subscribers-heading">
    <h2 id="subscribers-heading">Subscribers</h2>
    <p id="attention"></p>
    <div id="subscribers"><p class="hint">Each subscriber has a timeline of its purchases, charges, e-mails and events.</p></div>
  </section>
  ${section('purchases', 'Purchases', 'Every purchase of the sandbox, newest first: its status, what can still be refunded, and what happened to the money.')}
  ${section('outbox', 'Outbox', 'The e-mails the sandbox "sent".')}
</main>
${PAY_FORM}
${REFUND_FORM}
<script src="/ui/dashboard-actions.js" defer></script>
<script src="/ui/dashboard.js" defer></script>`,
    html`<style>${raw(BADGES + ACTIONS)}</style>`,
  );
}

export function dashboardRouter(): Router {
  const router = express.Router();
  router.get('/', (_req, res) => void res.type('html').send(dashboardPage()));
  router.get('/ui/dashboard.js', (_req, res) => res.type('text/javascript').sendFile(SCRIPT));
  router.get('/ui/dashboard-actions.js', (_req, res) => res.type('text/javascript').sendFile(ACTIONS_SCRIPT));
  return router;
}
