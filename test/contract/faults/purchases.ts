// Behavioural faults of the purchases checks: see index.ts. Each is a bug a real implementation of
// the platform's purchases could have — a state rule missing, an amount not bounded, an event named
// otherwise, a total reckoned the wrong way, an instant in the wrong unit, a field dropped by the
// serializer — emulated in the proxy: a request rewritten, an answer rewritten, or an answer given in
// the server's place (with what the simulator holds, read through `upstream`).

import { everyObject, type Fault, type ProxiedRequest, type ProxiedResponse } from '../fault-proxy.ts';

type Node = Record<string, any>;

/** The purchase id of `POST /api/v1/purchases/{id}/{action}/`, or undefined for any other request. */
function actionOn(request: ProxiedRequest, action: string): string | undefined {
  if (request.method !== 'POST') return undefined;
  return new RegExp(`^/api/v1/purchases/([^/]+)/${action}/$`).exec(request.path)?.[1];
}

const isCreate = (request: ProxiedRequest) => request.method === 'POST' && request.path.split('?')[0] === '/api/v1/purchases/';
const isGetOne = (request: ProxiedRequest) => request.method === 'GET' && /^\/api\/v1\/purchases\/[^/]+\/$/.test(request.path.split('?')[0]!);
const isEvents = (request: ProxiedRequest) => request.method === 'GET' && request.path.startsWith('/sim/v1/events');

/** A JSON answer given in the server's place. */
const answer = (status: number, body: unknown): ProxiedResponse => ({ status, headers: { 'content-type': 'application/json' }, body });

/** A purchase as the simulator holds it. */
const purchaseAt = async (upstream: Parameters<NonNullable<Fault['request']>>[1], id: string): Promise<Node> => (await upstream('GET', `/api/v1/purchases/${id}/`)).body as Node;

/** Every purchase object of an answer (create, get, list, actions, the checkout's pay). */
function eachPurchase(response: ProxiedResponse, change: (purchase: Node) => void): void {
  if (response.status >= 300) return;
  everyObject(response.body, (object) => {
    if (object.type === 'purchase' && typeof object.created_on === 'number') change(object);
  });
}

/** Renames (or, with null, drops) one event type in a page of GET /sim/v1/events. */
function renameEvent(request: ProxiedRequest, response: ProxiedResponse, from: string, to: string | null): void {
  if (!isEvents(request) || response.status !== 200) return;
  const page = response.body as { results: Node[] };
  page.results = page.results.filter((event) => to !== null || event.event_type !== from);
  for (const event of page.results) if (event.event_type === from) event.event_type = to;
}

/** A product's line as the platform publishes it, as `line` reckons it from its price, quantity, discount and tax_percent. */
function recomputeTotals(response: ProxiedResponse, line: (price: number, quantity: number, discount: number, tax: number) => number): void {
  eachPurchase(response, (purchase) => {
    const details = purchase.purchase as Node;
    if (details.total_override != null) return;
    details.total = (details.products as Node[]).reduce((sum, p) => sum + line(p.price, Number(p.quantity ?? 1), p.discount ?? 0, Number(p.tax_percent ?? 0)), 0);
  });
}

export const FAULTS: Fault[] = [
  // ------------------------------------------------------------------------ amounts bounded
  {
    name: 'a refund above what is left to refund accepted (the amount clamped to it)',
    catches: ['PUR-REFUND-ABOVE-PAID', 'PUR-REFUND-PARTIAL'],
    async request(request, upstream) {
      const id = actionOn(request, 'refund');
      const amount = (request.body as Node | undefined)?.amount;
      if (!id || typeof amount !== 'number') return;
      const { refundable_amount: left } = await purchaseAt(upstream, id);
      if (amount > left) request.body = { amount: left };
    },
  },

  // ----------------------------------------------------------------------------- state rules
  {
    name: 'a capture of a purchase not on hold answered as if captured',
    catches: ['PUR-CAPTURE-ONLY-HOLD', 'PUR-ACTIONS-ON-PAID', 'PUR-RELEASE'],
    async request(request, upstream) {
      const id = actionOn(request, 'capture');
      if (!id) return;
      const purchase = await purchaseAt(upstream, id);
      if (purchase.status !== 'hold') return answer(200, { ...purchase, status: 'paid' });
    },
  },
  {
    name: 'a cancelled purchase still payable and chargeable (cancel/ answers cancelled but changes nothing)',
    catches: ['PUR-CANCELLED-NOT-PAYABLE', 'PUR-CANCELLED-NOT-CHARGEABLE'],
    async request(request, upstream) {
      const id = actionOn(request, 'cancel');
      if (!id) return;
      const purchase = await purchaseAt(upstream, id);
      return answer(200, { ...purchase, status: 'cancelled', status_history: [...purchase.status_history, { status: 'cancelled', timestamp: purchase.updated_on }] });
    },
  },
  {
    name: 'a paid purchase cancelled (cancel/ checks no status)',
    catches: ['PUR-CANCEL-PAID'],
    async request(request, upstream) {
      const id = actionOn(request, 'cancel');
      if (!id) return;
      const purchase = await purchaseAt(upstream, id);
      if (purchase.status === 'paid') return answer(200, { ...purchase, status: 'cancelled' });
    },
  },
  {
    name: 'a refund of a purchase on hold accepted (the authorisation captured and refunded)',
    catches: ['PUR-REFUND-HOLD'],
    async request(request, upstream) {
      const id = actionOn(request, 'refund');
      if (id && (await purchaseAt(upstream, id)).status === 'hold') await upstream('POST', `/api/v1/purchases/${id}/capture/`, {});
    },
  },
  {
    name: 'a partial refund leaves the purchase refunded',
    catches: ['PUR-REFUND-PARTIAL'],
    response(request, response) {
      if (!isGetOne(request)) return;
      eachPurchase(response, (purchase) => {
        if (purchase.status === 'paid' && purchase.refundable_amount > 0 && purchase.refundable_amount < purchase.payment?.amount) purchase.status = 'refunded';
      });
    },
  },
  {
    name: 'a full refund not recorded on the purchase (it stays paid, all of it refundable)',
    catches: ['PUR-REFUND-FULL'],
    response(request, response) {
      if (!isGetOne(request)) return;
      eachPurchase(response, (purchase) => {
        if (purchase.status !== 'refunded') return;
        Object.assign(purchase, { status: 'paid', refundable_amount: purchase.payment.amount, refund_availability: 'all' });
      });
    },
  },

  // ------------------------------------------------------------------------------ charges
  {
    name: 'a declined charge answered 200 with the purchase, not 400 purchase_charge_error',
    catches: ['PUR-CHARGE-DECLINED'],
    async response(request, response, upstream) {
      const id = actionOn(request, 'charge');
      const code = (response.body as Node | undefined)?.__all__?.[0]?.code;
      if (!id || response.status !== 400 || code !== 'purchase_charge_error') return;
      Object.assign(response, answer(200, await purchaseAt(upstream, id)));
    },
  },
  {
    name: "another client's recurring token refused (invalid_recurring_token)",
    catches: ['PUR-CHARGE-OTHER-CLIENT-TOKEN'],
    async request(request, upstream) {
      const id = actionOn(request, 'charge');
      const token = (request.body as Node | undefined)?.recurring_token;
      if (!id || typeof token !== 'string') return;
      const [purchase, saving] = await Promise.all([purchaseAt(upstream, id), purchaseAt(upstream, token)]);
      if (saving.client_id && saving.client_id !== purchase.client_id) {
        return answer(400, { __all__: [{ message: 'This recurring token belongs to another client.', code: 'invalid_recurring_token' }] });
      }
    },
  },

  // ------------------------------------------------------------------------------- events
  {
    name: 'the cancel event spelt purchase.canceled',
    catches: ['PUR-CANCEL-EVENT'],
    response: (request, response) => renameEvent(request, response, 'purchase.cancelled', 'purchase.canceled'),
  },
  {
    name: 'the paid event spelt purchase.completed',
    catches: ['PUR-PAID-EVENT', 'PUR-CAPTURE-EVENTS'],
    response: (request, response) => renameEvent(request, response, 'purchase.paid', 'purchase.completed'),
  },
  {
    name: 'no purchase.released event after a release',
    catches: ['PUR-RELEASE-EVENT'],
    response: (request, response) => renameEvent(request, response, 'purchase.released', null),
  },
  {
    name: 'a declined payment recorded as purchase.failed',
    catches: ['PUR-PAYMENT-FAILURE-EVENT'],
    response: (request, response) => renameEvent(request, response, 'purchase.payment_failure', 'purchase.failed'),
  },

  {
    name: 'a declined payment\'s method shown as the purchase\'s (transaction_data.payment_method "fpx", not "")',
    catches: ['PUR-PAYMENT-FAILURE-EVENT'],
    response: (_request, response) =>
      eachPurchase(response, (purchase) => {
        const data = purchase.transaction_data as { payment_method?: unknown; attempts?: { payment_method?: unknown }[] } | undefined;
        if (purchase.status === 'error' && data?.payment_method === '' && data.attempts?.[0]) data.payment_method = data.attempts[0].payment_method;
      }),
  },

  // ------------------------------------------------------------------------------- totals
  {
    name: 'a product\'s tax_percent left out of the total',
    catches: ['PUR-TOTAL-LINES'],
    response: (request, response) => recomputeTotals(response, (price, quantity, discount) => Math.round(price * quantity) - discount),
  },
  {
    name: 'a discount taken off each unit instead of the line',
    catches: ['PUR-TOTAL-LINES'],
    response(request, response) {
      recomputeTotals(response, (price, quantity, discount, tax) => {
        const net = Math.round(price * quantity) - Math.round(discount * quantity);
        return net + Math.round((net * tax) / 100);
      });
    },
  },

  {
    name: 'a fraction of a cent truncated (each line floored, as integer division does)',
    catches: ['PUR-TOTAL-NEAREST-CENT'],
    response(request, response) {
      recomputeTotals(response, (price, quantity, discount, tax) => {
        const net = Math.floor(price * quantity) - discount;
        return net + Math.floor((net * tax) / 100);
      });
    },
  },

  // ----------------------------------------------------------------------------- instants
  {
    name: 'payment.paid_on in milliseconds',
    catches: ['PUR-INSTANTS-UNIX-SECONDS', 'PUR-PAY-STATUS-PAYMENT'],
    response(request, response) {
      eachPurchase(response, (purchase) => {
        if (purchase.payment) purchase.payment.paid_on *= 1000;
      });
    },
  },
  {
    name: 'created_on and updated_on in milliseconds',
    catches: ['PUR-INSTANTS-UNIX-SECONDS'],
    response(request, response) {
      eachPurchase(response, (purchase) => {
        purchase.created_on *= 1000;
        purchase.updated_on *= 1000;
      });
    },
  },
  {
    name: 'created_on rewritten by every change (it follows updated_on)',
    catches: ['PUR-INSTANTS-ON-ACTIONS'],
    response(request, response) {
      eachPurchase(response, (purchase) => {
        purchase.created_on = purchase.updated_on;
      });
    },
  },
  {
    name: 'updated_on not moved by a payment, refund or cancel',
    catches: ['PUR-INSTANTS-ON-ACTIONS'],
    response(request, response) {
      eachPurchase(response, (purchase) => {
        purchase.updated_on = purchase.created_on;
      });
    },
  },

  // ------------------------------------------------------------ fields the serializer drops
  {
    name: 'a purchase\'s issued dropped (today\'s date taken instead)',
    catches: ['PUR-DUE-ISSUED-AS-GIVEN'],
    request(request) {
      if (isCreate(request)) delete (request.body as Node | undefined)?.issued;
    },
  },
  {
    name: 'purchase.due_strict dropped (a strict purchase becomes overdue, still payable)',
    catches: ['PUR-EXPIRED'],
    request(request) {
      if (isCreate(request)) delete (request.body as Node | undefined)?.purchase?.due_strict;
    },
  },
  {
    name: 'force_recurring dropped (the card is not saved unless the payer chooses)',
    catches: ['TOK-FORCE-RECURRING-SAVES'],
    request(request) {
      if (isCreate(request)) delete (request.body as Node | undefined)?.force_recurring;
    },
  },
  {
    name: 'send_invoice_on_add_subscriber ignored (the first invoice is not e-mailed)',
    catches: ['PUR-SEND-INVOICE-ON-ADD-SUBSCRIBER'],
    request(request) {
      if (request.method === 'POST' && /\/add_subscriber\/$/.test(request.path)) delete (request.body as Node | undefined)?.send_invoice_on_add_subscriber;
    },
  },
];
