// The QA dashboard's checkpoints (served as /ui/dashboard-checkpoints.js before /ui/dashboard.js, no
// build step): the form that takes one, and the list of the sandbox's checkpoints with a Restore and a
// Delete button each (POST /sim/v1/checkpoints, …/{id}/restore, DELETE …/{id}). A classic script in
// the dashboard's one global scope, as dashboard-actions.js: it only defines, and the view calls.

/**
 * Draws the sandbox's checkpoints (read by each refresh of the view with the rest, and drawn in the
 * same turn, so that an action's focus lands on a finished page).
 */
function renderCheckpoints(checkpoints) {
  if (!checkpoints.length) return $('checkpoints').replaceChildren(el('p', { class: 'hint' }, 'No checkpoints yet.'));
  $('checkpoints').replaceChildren(table('Checkpoints, newest first', ['Name', 'Sandbox time', 'Taken (UTC)', 'Actions'], checkpoints.map((c) => {
    const owner = `checkpoint:${c.id}`;
    const name = `checkpoint ${c.name ?? c.clock.now}`;
    const restore = actionButton(owner, 'restore', 'Restore', name);
    restore.addEventListener('click', () => act(owner, 'restore', async () => {
      const restored = await api('POST', `/sim/v1/checkpoints/${c.id}/restore`);
      $('processed').textContent = '';
      return `Restored: sandbox time is ${restored.now} again; everything made since is gone.`;
    }));
    const remove = actionButton(owner, 'delete', 'Delete', name, { class: 'small secondary' });
    remove.addEventListener('click', () => act(owner, 'delete', async () => (await api('DELETE', `/sim/v1/checkpoints/${c.id}`), 'Deleted.')));
    return [c.name ?? '—', `${c.clock.now}${c.clock.frozen ? ' (frozen)' : ' (running)'}`, utc(c.created_on), [restore, ' ', remove, ' ', resultOf(owner)]];
  })));
}

function wireCheckpointForm() {
  $('checkpoint-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = $('checkpoint-form').querySelector('button');
    const name = $('checkpoint-name').value.trim();
    button.disabled = true;
    try {
      const taken = await api('POST', '/sim/v1/checkpoints', name ? { name } : {});
      $('checkpoint-result').textContent = `Checkpoint taken at sandbox time ${taken.clock.now}.`;
      $('checkpoint-result').classList.remove('error');
      $('checkpoint-name').value = '';
      await refresh({ quiet: true });
    } catch (error) {
      $('checkpoint-result').textContent = error instanceof ApiFailure ? error.first : error.message;
      $('checkpoint-result').classList.add('error');
    } finally {
      button.disabled = false;
    }
  });
}
