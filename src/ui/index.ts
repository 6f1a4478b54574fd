// The simulator's pages for people: the checkout page at each purchase's checkout_url, the cancel
// page at the link of a subscription's e-mails, the QA
// dashboard at `/` and the API reference at `/docs`. Mounted before the API's JSON-only rule: each
// page answers its own routes (the checkout form parses its urlencoded body itself) and passes
// every other request on untouched.

import express, { type Router } from 'express';
import type { Services } from '../http/handler.ts';
import { checkoutRouter } from './checkout.ts';
import { dashboardRouter } from './dashboard.ts';
import { defaultSandboxRouter } from './default-sandbox.ts';
import { directPostRouter } from './direct-post.ts';
import { docsRouter } from './docs.ts';
import { recordingsRouter } from './recordings.ts';
import { subscriptionCancelRouter } from './subscription-cancel.ts';

export function uiRouter(services: Services): Router {
  const router = express.Router();
  router.use(checkoutRouter(services), dashboardRouter(), defaultSandboxRouter(services), docsRouter());
  router.use(directPostRouter(services), subscriptionCancelRouter(services), recordingsRouter());
  // Browsers ask every page's origin for an icon; the simulator has none, and a 404 left a console error and a
  // log line per page. 204: there is nothing, and nothing is wrong.
  router.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  return router;
}
