// Shared by the configure and access point pages: loads the agent into the header and
// drives the publish state half of the publish bar.
import { api } from './api.js';
import { byId, showAlert, whileDisabled } from './dom.js';

export const agentId = document.querySelector('main').dataset.agentId;
export const agentPath = `/console/api/agents/${encodeURIComponent(agentId)}`;

// Resolves with the AgentDetail, or null after telling the user why it could not load.
export async function loadAgent(pageName) {
  try {
    const detail = await api.get(agentPath);
    byId('agent-name').textContent = detail.name;
    document.title = `${detail.name} · ${pageName} · Agent Builder`;
    return detail;
  } catch (err) {
    byId('agent-name').textContent = err.status === 404 ? 'Agent not found' : 'Agent unavailable';
    showAlert(byId('load-error'), err.status === 404 ? 'This agent does not exist or was deleted.' : err.message);
    return null;
  }
}

export function publishStateText(detail) {
  if (!detail.published) return 'Not published';
  if (detail.has_unpublished_changes) return 'Unpublished changes';
  return `Published v${detail.published.version} · up to date`;
}

// `beforePublish` resolves true once the draft on the server is the one to publish.
export function createPublishBar({ beforePublish = async () => true, onPublished = () => {} } = {}) {
  const stateEl = byId('publish-state');
  const button = byId('publish');
  const errorEl = byId('publish-error');

  // Called with fresh detail after saves and publishes: earlier refusal reasons may be stale.
  function update(detail) {
    stateEl.textContent = publishStateText(detail);
    showAlert(errorEl, '');
    button.disabled = false;
  }

  async function refresh() {
    const detail = await api.get(agentPath);
    update(detail);
    return detail;
  }

  button.addEventListener('click', () => whileDisabled(button, async () => {
    showAlert(errorEl, '');
    try {
      if (!(await beforePublish())) {
        showAlert(errorEl, 'Publish failed', ['Your latest changes are not saved.']);
        return;
      }
      const note = byId('publish-note');
      await api.post(`${agentPath}/publish`, { note: note.value.trim() });
      note.value = '';
      onPublished(await refresh());
    } catch (err) {
      const reasons = err.code === 'draft_invalid' ? err.body.reasons || [] : [err.message];
      showAlert(errorEl, 'Publish failed', reasons);
    }
  }));

  return { update, refresh };
}
