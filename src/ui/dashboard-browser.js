// The QA dashboard's client: plain browser JavaScript, served as is (no build step, no CDN). It
// calls the API with fetch and the sandbox token, and builds every row with textContent, so nothing
// the API returns is ever parsed as markup. Times are shown in UTC, as the API stores them.
//
// The token comes from the address (`#token=…`, or `?token=…`, moved into the hash so it is never
// sent to a server), else from localStorage; the hash always shows the token in use, so the address
// can be shared. Each action is one API request; its button (and the other buttons of the same
// purchase or subscriber) is disabled while it runs, its result or the API's first error message is
// written into that object's `role=status` element, and the whole view is then read again. The
// shared state, element builder and API client are in dashboard-base.js, the actions in
// dashboard-actions.js, the creating forms (with the API's messages beside their fields) in
// dashboard-create.js, the checkpoints in dashboard-checkpoints.js, the processing setting in
// dashboard-processing.js and the drawing of each section in dashboard-sections.js, all loaded first;
// this file reads the view, moves the clock, keeps the token (and greets a first visit), enables the
// controls that act on a sandbox once one is read, and starts.

const KEY = 'billing-sim.token';

/** The last view read, so that opening a form redraws without asking the API again. */
let view = null;

function render() {
  if (!view) return;
  const { templates, clients, purchases, events, outbox, deliveries } = view;
  renderClients(clients);
  renderTemplates(templates, clients);
  renderSubscribers(templates, clients, purchases, events, outbox);
  renderPurchases(purchases, clients);
  renderOutbox(outbox, purchases);
  renderDeliveries(deliveries);
}

/**
 * Enables the controls that act on the sandbox (dashboard.ts wraps each group in a
 * `fieldset.needs-sandbox`) once a sandbox is read, and disables them while none is: on a first
 * visit, after "Forget token", and from the switch to another token until its sandbox is read (a
 * refused token leaves them disabled). The title says why to a pointer and names the group to a screen reader.
 */
function sandboxReady(ready) {
  for (const group of document.querySelectorAll('fieldset.needs-sandbox')) {
    group.disabled = !ready;
    if (ready) group.removeAttribute('title');
    else group.title = 'Choose a sandbox first (Sandbox, at the top)';
  }
}

/** Counts reads, so that a slow read finishing after a newer one does not draw an older view. */
let reads = 0;

async function refresh({ quiet = false } = {}) {
  if (!token) return say('No sandbox chosen yet: choose one above to use the controls below.');
  const read = ++reads;
  try {
    const [clock, templates, clients, purchases, events, outbox, deliveries, checkpoints, processing] = await Promise.all([
      api('GET', '/sim/v1/clock'), list('/api/v1/billing_templates/'), list('/api/v1/clients/'),
      list('/api/v1/purchases/'), list('/sim/v1/events'), list('/sim/v1/outbox'), list('/sim/v1/webhook_deliveries'),
      list('/sim/v1/checkpoints'),
      // A server without the setting (an older one: 404) still shows everything else; any other failure is one.
      api('GET', '/sim/v1/processing').catch((error) => {
        if (error instanceof ApiFailure && error.status === 404) return null;
        throw error;
      }),
    ]);
    // One read of the newest purchases, events and e-mails serves every subscriber's timeline (each picks its own).
    for (const t of templates) t.subscribers = t.is_subscription ? await list(`/api/v1/billing_templates/${t.id}/clients/`) : [];
    for (const key of new Set(purchases.filter((p) => PAYABLE.has(p.status)).map((p) => `${p.brand_id}/${p.purchase.currency}`))) {
      const [brand, currency] = key.split('/');
      if (!methods.has(key)) methods.set(key, await api('GET', `/api/v1/payment_methods/?brand_id=${brand}&currency=${currency}`));
    }
    if (read !== reads) return;
    $('clock-now').textContent = clock.now;
    $('clock-frozen').textContent = clock.frozen ? '(frozen)' : '(running)';
    $('advance-date').min = clock.now.slice(0, 10);
    view = { templates, clients: new Map(clients.map((c) => [c.id, c])), purchases, events, outbox, deliveries, processing };
    render();
    renderCheckpoints(checkpoints);
    renderProcessing(processing);
    sandboxReady(true);
    // After an action its own result speaks; counts read before it would be stale.
    say(quiet ? '' : `Sandbox loaded: ${templates.length} template(s), ${purchases.length} purchase(s).`);
  } catch (error) {
    if (read === reads) say(error.message, true);
  }
}

async function advance(target) {
  const buttons = document.querySelectorAll('#clock-heading ~ * button');
  buttons.forEach((button) => (button.disabled = true));
  try {
    const answer = await api('POST', '/sim/v1/clock/advance', target);
    const counts = Object.entries(answer.processed).filter(([, n]) => n > 0).map(([what, n]) => `${what.replace(/_/g, ' ')}: ${n}`);
    $('processed').textContent = `Advanced to ${answer.now}: ${counts.join(', ') || 'nothing was due'}.`;
    await refresh({ quiet: true });
  } catch (error) {
    say(error.message, true);
  } finally {
    buttons.forEach((button) => (button.disabled = false));
  }
}

// ---------------------------------------------------------------- the token and the address

/** The token the address names: `#token=…` first, then `?token=…`. */
function tokenInAddress() {
  return new URLSearchParams(location.hash.slice(1)).get('token') || new URLSearchParams(location.search).get('token') || '';
}

/** Writes the token in use into the hash (and takes it out of the query, where a server would see it), without a new history entry. */
function showTokenInAddress() {
  const url = new URL(location.href);
  url.searchParams.delete('token');
  url.hash = token ? `token=${encodeURIComponent(token)}` : '';
  history.replaceState(null, '', url.href);
}

/** Switches to a sandbox: what was shown of the last one (results, open forms and timelines) goes. */
async function useToken(next, { keepResult = false } = {}) {
  token = next;
  if (token) localStorage.setItem(KEY, token);
  else localStorage.removeItem(KEY);
  $('token').value = token;
  $('forget').disabled = !token;
  sandboxReady(false);
  showTokenInAddress();
  for (const kept of [opened, results, forms, formRows, methods]) kept.clear();
  forgetForms();
  forgetProcessing();
  if (!keepResult) {
    $('new-sandbox-result').textContent = '';
    $('recording-result').textContent = '';
  }
  $('processed').textContent = '';
  $('checkpoint-result').textContent = '';
  $('first-visit').hidden = Boolean(token);
  $('one-click-result').textContent = '';
  view = null;
  await refresh();
}

// ---------------------------------------------------------------- a first visit

/**
 * Whether this page was opened on this machine's own address, where the simulator may hand it the
 * default sandbox's token (POST /ui/default-sandbox, which checks the request again and has the last word).
 */
const ON_LOOPBACK = ['localhost', '[::1]'].includes(location.hostname) || /^127\.\d+\.\d+\.\d+$/.test(location.hostname);

async function useDefaultSandbox() {
  const button = $('use-default');
  const report = reportIn($('one-click-result'));
  button.disabled = true;
  report('Asking the simulator for the default sandbox…');
  try {
    const given = await api('POST', '/ui/default-sandbox', undefined, { auth: false });
    report('');
    await useToken(given.token);
    $('token').focus();
  } catch (error) {
    report(error instanceof ApiFailure ? error.first : error.message, true);
  } finally {
    button.disabled = false;
  }
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  useToken($('token').value.trim());
});
$('forget').addEventListener('click', () => {
  useToken('');
  say('Token forgotten.');
});
$('new-sandbox').addEventListener('click', newSandbox);
$('recording-file').addEventListener('change', loadRecording);
$('one-click').hidden = !ON_LOOPBACK;
// With the one-click way above it, pasting is the other way; without it, the way.
$('paste-lead').textContent = ON_LOOPBACK ? 'Or paste' : 'Paste';
$('use-default').addEventListener('click', useDefaultSandbox);
wireCreateForms();
wireCheckpointForm();
wireProcessingForm();
for (const button of document.querySelectorAll('button.advance')) button.addEventListener('click', () => advance({ by: button.dataset.by }));
$('advance-form').addEventListener('submit', (event) => {
  event.preventDefault();
  advance({ to: `${$('advance-date').value}T00:00:00Z` });
});
// A link pasted into the address bar of an open dashboard changes only the hash.
window.addEventListener('hashchange', () => {
  const named = tokenInAddress();
  if (named && named !== token) useToken(named);
});
useToken(tokenInAddress() || localStorage.getItem(KEY) || '');
