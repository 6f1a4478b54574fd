// The QA dashboard's processing setting (served as /ui/dashboard-processing.js before /ui/dashboard.js,
// no build step): GET/PUT /sim/v1/processing {delay, settlement}, how long the platform's pending steps
// last and when a paid purchase is settled, in sandbox time. Shown in words and edited in a form that
// answers like the creating forms (dashboard-create.js: the API's message beside the field it names).
// A classic script in the dashboard's one global scope: it only defines, and dashboard-browser.js calls.

/** The setting the form was last filled with (JSON), so that a refresh overwrites what is typed only when the setting changed. */
let processingShown = null;

/** A duration with no digit but zeros lasts nothing: "PT0S", "P0D". */
const lastsNothing = (duration) => !/[1-9]/.test(duration);

/** The setting in words, as a tester reads it: what a capture does now, and whether purchases settle. */
function describeProcessing({ delay, settlement }) {
  const steps = lastsNothing(delay)
    ? 'Pending steps end at once: a capture, release, refund or token deletion passes its pending state within the same request.'
    : `Pending steps last ${delay} of sandbox time: a charge with a saved card, a capture, release or refund answers pending_charge, pending_capture, pending_release or pending_refund until then.`;
  const settled = settlement === null ? 'Paid purchases are never settled.' : `Paid purchases are settled ${settlement} after payment (purchase.settled).`;
  return `${steps} ${settled}`;
}

/**
 * Draws the setting (null: the server has no GET /sim/v1/processing, and the form is hidden). The
 * fields' default values follow the setting too, so that the form's reset after a save keeps it.
 */
function renderProcessing(setting) {
  const form = $('processing-form');
  form.hidden = !setting;
  if (!setting) {
    processingShown = null;
    $('processing-now').textContent = 'This server has no processing setting (GET /sim/v1/processing).';
    return;
  }
  $('processing-now').textContent = describeProcessing(setting);
  const shown = JSON.stringify(setting);
  if (shown === processingShown) return;
  processingShown = shown;
  const { delay, settlement } = form.elements;
  delay.value = delay.defaultValue = setting.delay;
  settlement.value = settlement.defaultValue = setting.settlement ?? '';
}

/** PUT what the form says: an empty delay keeps the current one, an empty (or "never") settlement is null. */
async function saveProcessing() {
  const { delay, settlement } = $('processing-form').elements;
  const body = { settlement: ['', 'never'].includes(settlement.value.trim().toLowerCase()) ? null : settlement.value.trim() };
  if (delay.value.trim()) body.delay = delay.value.trim();
  const saved = await api('PUT', '/sim/v1/processing', body);
  if (view) view.processing = saved;
  renderProcessing(saved);
  return `Saved. ${describeProcessing(saved)}`;
}

function wireProcessingForm() {
  const form = $('processing-form');
  labelFields(form, 'processing');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitForm(form, reportIn($('processing-result')), saveProcessing);
  });
}

/** On a switch of sandbox: the form is filled anew from the next sandbox's setting, and the last one's messages go. */
function forgetProcessing() {
  processingShown = null;
  clearErrors($('processing-form'));
  reportIn($('processing-result'))('');
}

/** "Capture requested: pending_capture until …", for an action the platform completes after the processing delay. */
function pendingResult(action, status) {
  const delay = view?.processing?.delay;
  return `${action} requested: ${status} until the processing delay${delay ? ` (${delay} of sandbox time)` : ''} has passed.`;
}

/** Whether the sandbox's pending steps take time, so that an action's answer is its pending state. */
const stepsTakeTime = () => Boolean(view?.processing && !lastsNothing(view.processing.delay));
