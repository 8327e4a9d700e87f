// Version history on the configure page: the published versions, newest first; one opens
// read-only in a dialog, and "Restore to draft" hands it to `restore(version)` (configure.js
// owns the draft) which resolves once the draft holds it.
import { api } from './api.js';
import { agentPath } from './agent_page.js';
import { byId, h, showAlert, timeEl } from './dom.js';

const list = byId('versions');
const emptyEl = byId('versions-empty');
const errorEl = byId('versions-error');
const dialog = byId('version-dialog');
const restoreButton = byId('version-restore');
const dialogError = byId('version-error');

function details(config) {
  const enabledTools = config.tools.filter((tool) => tool.enabled).map((tool) => tool.name);
  const rows = [
    ['Model', config.model ? config.model.name : 'No model'],
    ['Temperature', String(config.parameters.temperature)],
    ['Max tokens', String(config.parameters.max_tokens)],
    ['Opening statement', config.opening_statement || 'None'],
    ['Suggested questions', config.suggested_questions.join(' · ') || 'None'],
    ['Tools', enabledTools.join(', ') || 'None'],
    ['Knowledge datasets', String(config.knowledge.dataset_ids.length)],
  ];
  return rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]);
}

export function createVersionHistory({ restore }) {
  let versions = [];
  let opened = null;

  function open(version) {
    opened = version;
    byId('version-title').textContent = `Version ${version.version}`;
    byId('version-meta').replaceChildren('Published ', timeEl(version.published_at),
      version.note ? ` · ${version.note}` : '');
    byId('version-instructions').value = version.config.instructions;
    byId('version-details').replaceChildren(...details(version.config));
    showAlert(dialogError, '');
    dialog.showModal();
  }

  function render() {
    list.replaceChildren(...versions.map((version) => h('li', { class: 'row' },
      h('span', { class: 'row-main' }, h('strong', {}, `v${version.version}`), ' ',
        version.note || h('span', { class: 'muted' }, 'No note')),
      h('span', { class: 'muted' }, timeEl(version.published_at)),
      h('button', {
        type: 'button', class: 'button small', 'aria-label': `Open version ${version.version}`,
        onclick: () => open(version),
      }, 'Open'))));
    emptyEl.hidden = versions.length > 0;
  }

  async function refresh() {
    try {
      versions = (await api.get(`${agentPath}/versions`)).data;
      showAlert(errorEl, '');
    } catch (err) {
      showAlert(errorEl, `Could not load the version history: ${err.message}`);
    }
    render();
  }

  byId('version-close').addEventListener('click', () => dialog.close());
  restoreButton.addEventListener('click', async () => {
    restoreButton.disabled = true;
    showAlert(dialogError, '');
    try {
      await restore(opened.version);
      dialog.close();
    } catch (err) {
      showAlert(dialogError, `Could not restore version ${opened.version}: ${err.message}`);
    } finally {
      restoreButton.disabled = false;
    }
  });

  return { refresh };
}
