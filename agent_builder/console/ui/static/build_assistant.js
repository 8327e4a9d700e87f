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
  if (proposal.skills !== null) rows.push(['Skills', config.skills.map((skill) => ({ text: skill.name })), skills(config, proposal)]);
  return rows;
}

// The draft's skills once applied: each in its place (noted when the proposal rewrites it), then
// the proposal's new ones.
function skills(config, proposal) {
  const proposed = new Map(proposal.skills.map((skill) => [skill.name, skill]));
  const kept = config.skills.map((skill) => ({
    text: skill.name, note: proposed.get(skill.name)?.change === 'replaced' ? 'replaced' : null,
  }));
  const added = proposal.skills.filter((skill) => !config.skills.some((held) => held.name === skill.name))
    .map((skill) => ({ text: skill.name, note: skill.available ? 'new' : 'unavailable' }));
  return [...kept, ...added];
}

function cell(list) {
  if (!list.length) return h('td', { class: 'muted' }, 'None');
  if (list.length === 1 && !list[0].note) return h('td', {}, h('div', { class: 'proposal-text' }, list[0].text));
  return h('td', {}, h('ul', { class: 'proposal-items' }, list.map(({ text, note }) => h('li', {}, text,
    note && h('span', { class: note === 'unavailable' ? 'badge warning' : 'badge' }, ` (${note})`)))));
}

const same = (a, b) => JSON.stringify(a.map((item) => item.text)) === JSON.stringify(b.map((item) => item.text))
  && b.every((item) => !item.note);

class BuildAssistant {
  constructor(draft) {
    this.draft = draft;
    this.description = byId('assistant-description');
    this.propose = byId('assistant-propose');
    this.status = byId('assistant-status');
    this.error = byId('assistant-error');
    this.panel = byId('proposal');
    this.applyButton = byId('proposal-apply');
    this.discardButton = byId('proposal-discard');
    this.pending = null;
    this.names = { tools: {}, datasets: {} };
  }

  render() {
    const { pending } = this;
    this.panel.hidden = !pending;
    if (!pending) return;
    byId('proposal-description').textContent = pending.description;
    byId('proposal-changes').replaceChildren(...sections(this.draft.config(), pending, this.names).map(
      ([label, now, next]) => h('tr', {},
        h('th', { scope: 'row' }, label, h('span', { class: 'change-state' }, same(now, next) ? 'No change' : 'Changes')),
        cell(now), cell(next))));
    const missing = [...(pending.tools || []), ...(pending.knowledge || []), ...(pending.skills || [])]
      .filter((item) => !item.available);
    showAlert(byId('proposal-unavailable'), missing.length ? 'Not applied, because it is unavailable:' : '',
      missing.map((item) => `${item.name}: ${item.reason}`));
  }

  // Runs one action with the buttons disabled; its failure shows in the alert.
  async act(work) {
    const buttons = [this.propose, this.applyButton, this.discardButton];
    showAlert(this.error, '');
    for (const button of buttons) button.disabled = true;
    try {
      await work();
    } catch (err) {
      this.status.textContent = '';
      showAlert(this.error, err.message);
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  }

  async ask(text) {
    this.status.textContent = 'Asking the decision model…';
    this.pending = await api.post(base, { description: text });
    this.status.textContent = 'Review the proposal below: the draft is unchanged until you apply it.';
    this.render();
  }

  async apply() {
    if (!(await this.draft.settle())) throw new Error('Apply failed: your latest changes are not saved.');
    this.draft.hold(true);
    try {
      const saved = await api.post(`${base}/apply`, { revision: this.draft.revision() });
      this.pending = null;
      this.draft.replace(saved);
      this.status.textContent = `Applied: the draft was saved as revision ${saved.revision}.`;
    } finally {
      this.draft.hold(false);
      this.render();
    }
  }

  async discard() {
    await api.delete(base);
    this.pending = null;
    this.status.textContent = 'Proposal discarded: the draft is unchanged.';
    this.render();
  }

  // The tool and dataset names come from the configure page, which has just loaded both lists.
  async load({ tools, datasets }) {
    for (const tool of tools) this.names.tools[tool.name] = tool.label;
    for (const dataset of datasets) this.names.datasets[dataset.id] = dataset.name;
    this.pending = (await api.get(base)).proposal;
  }
}

export async function mountBuildAssistant(draft, catalog) {
  const assistant = new BuildAssistant(draft);
  byId('assistant-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = assistant.description.value.trim();
    if (!text) return showAlert(assistant.error, 'Describe the agent first.');
    assistant.act(() => assistant.ask(text));
  });
  assistant.applyButton.addEventListener('click', () => assistant.act(() => assistant.apply()));
  assistant.discardButton.addEventListener('click', () => assistant.act(() => assistant.discard()));
  draft.onSaved(() => assistant.render()); // "Current draft" is the draft as saved now
  try {
    await assistant.load(catalog);
  } catch (err) {
    showAlert(assistant.error, `Could not load the build assistant: ${err.message}`);
    return;
  }
  assistant.render();
  assistant.propose.disabled = false;
}
