// The QA dashboard at `/`: a server-rendered shell whose sections a small static script
// (dashboard-browser.js, served as /ui/dashboard.js, no build step) fills by calling the API with
// the sandbox token pasted here. The page holds no sandbox state of its own: everything it shows
// is what a client of the API sees.

import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { html, page, raw } from './html.ts';

const SCRIPT = fileURLToPath(new URL('./dashboard-browser.js', import.meta.url));

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
 */
const BADGES = `
  .badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; border: 1px solid; font-size: .85rem; white-space: nowrap; }
  .badge, .status-created, .status-cancelled { background: #eef0f3; color: #374151; border-color: #c5cad1; }
  .status-sent, .status-viewed { background: #e0ecff; color: #1e3a8a; border-color: #9db8ee; }
  .status-hold, .status-pending_execute { background: #fff4d6; color: #713f00; border-color: #e5c46b; }
  .status-paid { background: #dcf3e1; color: #14532d; border-color: #8fcb9d; }
  .status-refunded { background: #dcf3f1; color: #134e4a; border-color: #86c9c1; }
  .status-released { background: #ede9fe; color: #4c1d95; border-color: #b9a7ef; }
  .status-error { background: #fde2e1; color: #8b1a1a; border-color: #e5a09c; }
  .status-overdue { background: #ffedd5; color: #8a2c0d; border-color: #f0b27a; }
  .status-expired { background: #7f1d1d; color: #fff; border-color: #7f1d1d; }
  .status-cancelled { text-decoration: line-through; }
  .badge.marked-as-paid { background: #fff; color: #14532d; border: 1px dashed #2f7d46; }
  #purchases td:nth-child(1), #purchases td:nth-child(3), #purchases td:nth-child(5) { white-space: nowrap; }
`;

function section(id: string, title: string, hint: string) {
  return html`<section aria-labelledby="${id}-heading">
  <h2 id="${id}-heading">${title}</h2>
  <div id="${id}"><p class="hint">${hint}</p></div>
</section>`;
}

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
    <p class="hint" id="token-hint">Kept in this browser (localStorage). <code>npm start</code> prints the default sandbox's
      token; <code>POST /sim/v1/sandboxes</code> answers a new sandbox's. The <a href="/docs">API reference</a> can try requests.</p>
    <p id="message" role="status" aria-live="polite"></p>
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
    <p id="processed" class="hint" aria-live="polite"></p>
  </section>
  ${section('templates', 'Billing templates', 'Paste a token to see the sandbox.')}
  ${section('subscribers', 'Subscribers', 'Each subscriber has a timeline of its purchases, charges, e-mails and events.')}
  ${section('purchases', 'Purchases', 'Every purchase of the sandbox, newest first: its status, what can still be refunded, and what happened to the money.')}
  ${section('outbox', 'Outbox', 'The e-mails the sandbox "sent".')}
</main>
<script src="/ui/dashboard.js" defer></script>`,
    html`<style>${raw(BADGES)}</style>`,
  );
}

export function dashboardRouter(): Router {
  const router = express.Router();
  router.get('/', (_req, res) => void res.type('html').send(dashboardPage()));
  router.get('/ui/dashboard.js', (_req, res) => res.type('text/javascript').sendFile(SCRIPT));
  return router;
}
