// Behavioural faults of the time checks (see index.ts): what a billing engine gets wrong as its clock
// moves. Each is a bug a real implementation could have: a flag its serializer drops as DRF drops a
// field it does not declare (a pause, a mail flag), a scheduled job that never runs (overdue, expiry
// marking) or ignores a flag (due_strict), a rule applied to the wrong thing (a declined automatic
// charge treated as a checkout decline, or as the end of a subscription), a stored date never
// consulted (the mandate's expiry).
// Where a bug depends on what happened to a subscriber, the fault asks the simulator (`upstream`) for
// the subscriber's billed purchases, so that it acts only after a declined charge, as the bug would.

import { everyObject, type Fault, type ProxiedRequest, type Upstream } from '../fault-proxy.ts';

type Node = Record<string, any>;

const SUBSCRIBER = /^\/api\/v1\/billing_templates\/([^/]+)\/clients\/([^/?]+)\/?(?:\?|$)/;
const ADD_SUBSCRIBER = /^\/api\/v1\/billing_templates\/[^/]+\/add_subscriber\/?(?:\?|$)/;
const TEMPLATE = /^\/api\/v1\/billing_templates\/[^/?]+\/?(?:\?|$)/;
const PURCHASES = /^\/api\/v1\/purchases\//;

/** The subscriber answered by GET /billing_templates/{id}/clients/{id}/, or undefined. */
function subscriberAnswer(request: ProxiedRequest, body: unknown): Node | undefined {
  return request.method === 'GET' && SUBSCRIBER.test(request.path) && body && typeof body === 'object' ? (body as Node) : undefined;
}

/** How many of the template's purchases for the client a declined automatic charge left unpaid. */
async function declinedBillings(upstream: Upstream, templateId: string, clientId: string): Promise<number> {
  const listed = await upstream('GET', `/api/v1/purchases/?billing_template_id=${templateId}&client_id=${clientId}&page_size=1000`);
  const purchases = ((listed.body as Node | undefined)?.results ?? []) as Node[];
  return purchases.filter((p) => p.status !== 'paid' && (p.transaction_data?.attempts ?? []).some((a: Node) => a.type === 'recurring_execute' && !a.successful)).length;
}

/** A purchase of a billing whose automatic charge was declined (its newest attempt failed). */
const declinedBilling = (purchase: Node): boolean =>
  purchase.type === 'purchase' && !!purchase.billing_template_id && purchase.transaction_data?.attempts?.[0]?.successful === false;

/** Every purchase in an answer whose status is `from` shows the status it had before, as if the job that set `from` never ran. */
function unmark(body: unknown, from: string): void {
  everyObject(body, (object) => {
    if (object.type !== 'purchase' || object.status !== from || !Array.isArray(object.status_history)) return;
    const history = (object.status_history as Node[]).filter((entry) => entry.status !== from);
    object.status_history = history;
    object.status = history.at(-1)?.status ?? 'created';
  });
}

/** Drops `field` from a request's JSON body when `when` holds for its value: a serializer that never declared it. */
function dropped(request: ProxiedRequest, field: string, when: (value: unknown) => boolean = () => true): void {
  const body = request.body as Node | undefined;
  if (body && typeof body === 'object' && field in body && when(body[field])) delete body[field];
}

/** The mandate each add_subscriber request sent, while the server was given a later one (the mandate fault). */
const mandateSent = new WeakMap<ProxiedRequest, string>();
/** The mandate each subscriber was sent with, by id, for the answers that show it later. */
const sentMandates = new Map<string, string>();

export const FAULTS: Fault[] = [
  {
    name: 'a declined automatic charge pauses the subscriber (subscription_paused) instead of leaving it active',
    catches: ['TIME-CHARGE-FAILURE-SUBSCRIBER'],
    async response(request, response, upstream) {
      const subscriber = subscriberAnswer(request, response.body);
      if (subscriber?.status !== 'active') return;
      if ((await declinedBillings(upstream, SUBSCRIBER.exec(request.path)![1]!, subscriber.client_id)) > 0) subscriber.status = 'subscription_paused';
    },
  },
  {
    name: 'number_of_billing_cycles_passed counts only the billings that were paid, not a declined one',
    catches: ['TIME-CHARGE-FAILURE-SUBSCRIBER'],
    async response(request, response, upstream) {
      const subscriber = subscriberAnswer(request, response.body);
      if (typeof subscriber?.number_of_billing_cycles_passed !== 'number') return;
      subscriber.number_of_billing_cycles_passed -= await declinedBillings(upstream, SUBSCRIBER.exec(request.path)![1]!, subscriber.client_id);
    },
  },
  {
    name: 'a declined automatic charge is recorded as purchase.payment_failure, not purchase.subscription_charge_failure',
    catches: ['TIME-SUBSCRIPTION-CHARGE-FAILURE'],
    response(request, response) {
      if (!request.path.startsWith('/sim/v1/events')) return;
      everyObject(response.body, (object) => {
        if (object.event_type === 'purchase.subscription_charge_failure') object.event_type = 'purchase.payment_failure';
      });
    },
  },
  {
    name: 'a declined automatic charge leaves the billed purchase error (as a checkout decline), not sent',
    catches: ['TIME-SUBSCRIPTION-CHARGE-FAILURE', 'TIME-INVOICE-ON-FAILURE'],
    response(request, response) {
      if (request.method !== 'GET' || !PURCHASES.test(request.path)) return;
      everyObject(response.body, (object) => {
        if (object.status === 'sent' && declinedBilling(object)) object.status = 'error';
      });
    },
  },
  {
    name: 'overdue is never marked: an unpaid purchase stays as it was after its due has passed',
    catches: ['TIME-OVERDUE', 'TIME-OVERDUE-BILLED'],
    response(request, response) {
      if (request.method === 'GET' && PURCHASES.test(request.path)) unmark(response.body, 'overdue');
    },
  },
  {
    name: 'expiry is never marked: a due_strict purchase stays as it was after its due has passed',
    catches: ['TIME-EXPIRED'],
    response(request, response) {
      if (request.method === 'GET' && PURCHASES.test(request.path)) unmark(response.body, 'expired');
    },
  },
  {
    name: 'purchase.due_strict is ignored when the due passes: the purchase becomes overdue (still payable), not expired',
    catches: ['TIME-EXPIRED'],
    response(request, response) {
      if (request.method !== 'GET' || !PURCHASES.test(request.path)) return;
      everyObject(response.body, (object) => {
        if (object.type !== 'purchase' || object.status !== 'expired') return;
        object.status = 'overdue';
        for (const entry of (object.status_history ?? []) as Node[]) if (entry.status === 'expired') entry.status = 'overdue';
      });
    },
  },
  {
    name: "the mandate's expiry is stored but never applied: billing goes on after mandate_expiry_date",
    catches: ['TIME-MANDATE-EXPIRY'],
    request(request) {
      if (request.method !== 'POST' || !ADD_SUBSCRIBER.test(request.path)) return;
      const body = request.body as Node;
      if (typeof body?.mandate_expiry_date !== 'string') return;
      // The server is given a mandate twenty years longer; the answers show the one sent.
      const sent = body.mandate_expiry_date;
      body.mandate_expiry_date = `${Number(sent.slice(0, 4)) + 20}${sent.slice(4)}`;
      mandateSent.set(request, sent);
    },
    response(request, response) {
      const sent = mandateSent.get(request);
      const added = (response.body as Node | undefined)?.billing_template_client as Node | undefined;
      if (sent && added?.id) sentMandates.set(added.id, sent);
      everyObject(response.body, (object) => {
        const mandate = object.type === 'billing_template_client' ? sentMandates.get(object.id as string) : undefined;
        if (mandate) object.mandate_expiry_date = mandate;
      });
    },
  },
  {
    name: "a subscriber's status PATCH is ignored (status handled as read-only): a paused subscriber is still billed",
    catches: ['TIME-PAUSE-EXAMPLE', 'TIME-PAUSE-NO-INVOICES'],
    request(request) {
      if (request.method === 'PATCH' && SUBSCRIBER.test(request.path)) dropped(request, 'status');
    },
  },
  {
    name: "the template's subscription_paused is ignored on PATCH: its subscribers are still billed",
    catches: ['TIME-TEMPLATE-PAUSED'],
    request(request) {
      if (request.method === 'PATCH' && TEMPLATE.test(request.path)) dropped(request, 'subscription_paused');
    },
  },
  {
    name: "a subscriber's send_receipt false is dropped (the default true applies): a receipt is sent anyway",
    catches: ['TIME-RECEIPT-ON-SUCCESS'],
    request(request) {
      if (request.method === 'POST' && ADD_SUBSCRIBER.test(request.path)) dropped(request, 'send_receipt', (value) => value === false);
    },
  },
  {
    name: "a subscriber's send_invoice_on_charge_failure false is dropped (the default true applies): an invoice is sent anyway",
    catches: ['TIME-INVOICE-ON-FAILURE'],
    request(request) {
      if (request.method === 'POST' && ADD_SUBSCRIBER.test(request.path)) dropped(request, 'send_invoice_on_charge_failure', (value) => value === false);
    },
  },
];
