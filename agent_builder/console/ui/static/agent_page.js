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

// After the first publish: where the agent can now be used (its web app, the service API's
// reference, the embed dialog of the access point, or `onEmbed(link)` where the page has it).
function showPublishGuidance(detail, onEmbed) {
  byId('guidance-web-app').href = detail.access.web_app_url;
  byId('guidance-api-reference').href = detail.access.api_reference_url;
  const embed = byId('guidance-embed');
  if (onEmbed) {
    embed.onclick = (event) => {
      event.preventDefault();
      onEmbed(embed);
    };
  }
  byId('publish-guidance').hidden = false;
}

// `beforePublish` resolves true once the draft on the server is the one to publish.
export function createPublishBar({ beforePublish = async () => true, onPublished = () => {}, onEmbed = null } = {}) {
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
      const published = await api.post(`${agentPath}/publish`, { note: note.value.trim() });
      note.value = '';
      const detail = await refresh();
      if (published.version === 1) showPublishGuidance(detail, onEmbed);
      onPublished(detail);
    } catch (err) {
      const reasons = err.code === 'draft_invalid' ? err.body.reasons || [] : [err.message];
      showAlert(errorEl, 'Publish failed', reasons);
    }
  }));

  return { update, refresh };
}
