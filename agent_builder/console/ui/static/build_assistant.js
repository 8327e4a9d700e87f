// The configure page's build assistant: the user describes the agent, the decision model
// proposes a draft (docs/console.md, "Build assistant"), and the page shows it section by section
// against the current draft. Apply writes it as one saved revision; Discard drops it. A pending
// proposal is kept by the console, so it is shown again after leaving the page.
import { api } from './api.js';
import { agentPath } from './agent_page.js';
import { byId, h, showAlert } from './dom.js';

const base = `${agentPath}/build-assistant/proposal`;

// Section label -> [what the draft has now, what the proposal has] as lists of {text, note}.
function sections(config, proposal, names) {
  const plain = (value) => (value ? [{ text: value }] : []);
  const items = (list) => list.map((item) => ({ text: item.label, note: item.available ? null : 'unavailable' }));
  const rows = [];
  if (proposal.instructions !== null) rows.push(['Instructions', plain(config.instructions), plain(proposal.instructions)]);
  if (proposal.opening_statement !== null) {
    rows.push(['Opening statement', plain(config.opening_statement), plain(proposal.opening_statement)]);
  }
  if (proposal.suggested_questions !== null) {
    const questions = (list) => list.map((text) => ({ text }));
    rows.push(['Suggested questions', questions(config.suggested_questions), questions(proposal.suggested_questions)]);
  }
  if (proposal.tools !== null) {
    const enabled = config.tools.filter((tool) => tool.enabled).map((tool) => ({ text: names.tools[tool.name] || tool.name }));
    rows.push(['Tools', enabled, items(proposal.tools)]);
  }
  if (proposal.knowledge !== null) {
    const attached = config.knowledge.dataset_ids.map((id) => ({ text: names.datasets[id] || 'Unknown dataset' }));
    rows.push(['Knowledge', attached, items(proposal.knowledge)]);
  }
  return rows;
}

function cell(list) {
  if (!list.length) return h('td', { class: 'muted' }, 'None');
  if (list.length === 1 && !list[0].note) return h('td', {}, h('div', { class: 'proposal-text' }, list[0].text));
  return h('td', {}, h('ul', { class: 'proposal-items' }, list.map(({ text, note }) => h('li', {}, text,
    note && h('span', { class: 'badge warning' }, ` (${note})`)))));
}

const same = (a, b) => JSON.stringify(a.map((item) => item.text)) === JSON.stringify(b.map((item) => item.text))
  && b.every((item) => !item.note);

export async function mountBuildAssistant(draft) {
  const form = byId('assistant-form');
  const description = byId('assistant-description');
  const propose = byId('assistant-propose');
  const status = byId('assistant-status');
  const error = byId('assistant-error');
  const panel = byId('proposal');
  const applyButton = byId('proposal-apply');
  const discardButton = byId('proposal-discard');
  let pending = null;
  const names = { tools: {}, datasets: {} };

  function render() {
    panel.hidden = !pending;
    if (!pending) return;
    byId('proposal-description').textContent = pending.description;
    byId('proposal-changes').replaceChildren(...sections(draft.config(), pending, names).map(([label, now, next]) =>
      h('tr', {}, h('th', { scope: 'row' }, label, h('span', { class: 'change-state' }, same(now, next) ? 'No change' : 'Changes')),
        cell(now), cell(next))));
    const missing = [...(pending.tools || []), ...(pending.knowledge || [])].filter((item) => !item.available);
    showAlert(byId('proposal-unavailable'), missing.length ? 'Not applied, because it is unavailable:' : '',
      missing.map((item) => `${item.name}: ${item.reason}`));
  }

  async function act(button, work) {
    showAlert(error, '');
    for (const control of [propose, applyButton, discardButton]) control.disabled = true;
    try {
      await work();
    } catch (err) {
      status.textContent = '';
      showAlert(error, err.message);
    } finally {
      for (const control of [propose, applyButton, discardButton]) control.disabled = false;
      if (button.isConnected && !button.closest('[hidden]')) button.focus();
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = description.value.trim();
    if (!text) return showAlert(error, 'Describe the agent first.');
    act(propose, async () => {
      status.textContent = 'Asking the decision model…';
      pending = await api.post(base, { description: text });
      status.textContent = 'Review the proposal below: the draft is unchanged until you apply it.';
      render();
    });
  });

  applyButton.addEventListener('click', () => act(propose, async () => {
    if (!(await draft.settle())) throw new Error('Apply failed: your latest changes are not saved.');
    draft.hold(true);
    try {
      const saved = await api.post(`${base}/apply`, { revision: draft.revision() });
      pending = null;
      draft.replace(saved);
      status.textContent = `Applied: the draft was saved as revision ${saved.revision}.`;
    } finally {
      draft.hold(false);
      render();
    }
  }));

  discardButton.addEventListener('click', () => act(propose, async () => {
    await api.delete(base);
    pending = null;
    status.textContent = 'Proposal discarded: the draft is unchanged.';
    render();
  }));

  draft.onSaved(render); // "Current draft" is the draft as saved now
  try {
    const [tools, datasets, stored] = await Promise.all([
      api.get('/console/api/tools'),
      api.get('/console/api/datasets'),
      api.get(base),
    ]);
    for (const tool of tools.data) names.tools[tool.name] = tool.label;
    for (const dataset of datasets.data) names.datasets[dataset.id] = dataset.name;
    pending = stored.proposal;
  } catch (err) {
    showAlert(error, `Could not load the build assistant: ${err.message}`);
    return;
  }
  render();
  propose.disabled = false;
}
