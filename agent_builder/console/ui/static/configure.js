// Configure page: edits the agent draft and autosaves it.
//
// Autosave keeps one rule: the server only ever receives the latest full config, one PUT at a
// time, with the revision from the previous response. A 409 means someone else saved since we
// loaded; we stop saving rather than overwrite their work (draft_sync.js offers "Load latest").
import { api } from './api.js';
import { agentPath, createPublishBar, loadAgent } from './agent_page.js';
import { mountBuildAssistant } from './build_assistant.js';
import { byId, h, pageLoaded, setFieldError, showAlert } from './dom.js';
import { CHANGED_ELSEWHERE, createDraftSync } from './draft_sync.js';
import { loadFiles } from './agent_files.js';
import { openDuplicateDialog } from './duplicate.js';
import { loadEnvVars } from './env_vars.js';
import { bindModeration, showModeration } from './moderation.js';
import { guardLeave } from './nav.js';
import { bindOutputs, showOutputs } from './outputs.js';
import { mountPreview } from './preview.js';
import { mountSkills, showSkills } from './skills.js';
import { renderToolList } from './tool_list.js';
import { createVersionHistory } from './versions.js';

const SAVE_DELAY_MS = 500;
const MAX_QUESTIONS = 5;

let config; // the draft config as currently edited
let revision;
let questions = []; // question rows, including blank ones still being typed (never saved)
let models = [];
let tools = [];
let datasets = [];

// ---------------------------------------------------------------- autosave

const saveStateEl = byId('save-state');
const retryButton = byId('save-retry');
const instructionsInput = byId('instructions');
let pending = false; // edits not sent yet
let saving = null; // the PUT in flight
let timer = null;
let failed = false;
let conflict = false;
const savedListeners = []; // the preview and the build assistant: told once every edit is saved

function showSaveState(text, { retry = false } = {}) {
  saveStateEl.textContent = text;
  retryButton.hidden = !retry;
}

function edited() {
  if (conflict) return;
  pending = true;
  showSaveState('Saving…');
  clearTimeout(timer);
  timer = setTimeout(flush, SAVE_DELAY_MS);
}

function putDraft(draftRevision) {
  // keepalive lets a save that is in flight when the user leaves still reach the server. Drafts
  // stay well under keepalive's 64 KiB body limit: the long text fields are capped by maxlength.
  return api.put(`${agentPath}/draft`, { revision: draftRevision, config }, { keepalive: true });
}

function flush() {
  clearTimeout(timer);
  timer = null;
  if (saving || !pending || conflict) return;
  pending = false;
  failed = false;
  saving = putDraft(revision)
    .then(onSaved, onSaveFailed)
    .finally(() => {
      saving = null;
      // Edits made during this save whose debounce already ran go out now.
      if (pending && !timer && !failed) flush();
    });
}

function onSaved(draft) {
  revision = draft.revision;
  sync.known(draft);
  if (instructionsInput.hasAttribute('aria-invalid')) setFieldError(instructionsInput, '');
  if (pending) return; // newer edits are still on their way: keep saying "Saving…"
  showSaveState('Saved');
  publishBar.refresh().catch(() => {}); // the publish state depends on the saved draft
  tellSaved();
}

// Tells the preview and the build assistant that the draft shown is now the saved one.
function tellSaved() {
  for (const listener of savedListeners) listener();
}

function onSaveFailed(err) {
  pending = true; // those edits are still unsaved
  if (err.code === 'revision_conflict') {
    conflict = true;
    showSaveState('Save failed: this agent was changed elsewhere. Reload to get the latest version.');
    sync.stale();
  } else if (err.code === 'secret_in_instructions') {
    // The same draft would be refused again, so no Retry: the next edit saves (and says why).
    failed = true;
    setFieldError(instructionsInput, err.message);
    showSaveState('Save failed: the instructions use a secret variable.');
  } else {
    failed = true;
    showSaveState('Save failed', { retry: true });
  }
}

// Resolves true once every edit is saved; false if saving failed (the page then says so).
async function settle() {
  flush();
  while (saving) {
    await saving;
    if (failed || conflict) return false;
    flush();
  }
  return !pending && !conflict;
}

retryButton.addEventListener('click', () => {
  showSaveState('Saving…');
  flush();
});

guardLeave(settle);

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') flush();
});

window.addEventListener('pagehide', () => {
  if (!saving) return flush();
  if (!pending || conflict) return;
  // The page is going away while a save is in flight, so we can't wait for its revision.
  // The server increments the revision by one, so send the newest edits with that; if the
  // save in flight failed, the server refuses this one with a 409 instead of overwriting.
  clearTimeout(timer);
  pending = false;
  putDraft(revision + 1).catch(() => {});
});

const versionHistory = createVersionHistory({ restore: restoreVersion });
const publishBar = createPublishBar({ beforePublish: settle, onPublished: versionHistory.refresh });
const sync = createDraftSync({
  state: () => ({ revision, config, idle: !pending && !saving }),
  onStale: () => {
    conflict = true;
    if (!saveStateEl.textContent.startsWith('Save failed')) showSaveState(CHANGED_ELSEWHERE);
  },
  apply: (detail, merged, changed) => {
    conflict = false;
    showDraft({ revision: detail.draft.revision, config: merged });
    sync.known(detail.draft); // the server holds theirs until this tab's changes are saved
    publishBar.update(detail);
    if (changed) {
      edited(); // this tab's own changes, kept on top of the latest draft
    } else {
      showSaveState('Loaded the latest version');
      tellSaved(); // the latest draft is the saved one: the preview shows it at once
    }
  },
});

// A restore is one new revision: it waits for this tab's edits, and is refused (409) when another
// tab saved since. What is published does not change.
async function restoreVersion(version) {
  if (!(await settle())) throw new Error('Your latest changes are not saved.');
  try {
    showDraft(await api.post(`${agentPath}/versions/${version}/restore`, { revision }));
  } catch (err) {
    if (err.code === 'revision_conflict') sync.stale(); // nothing of this tab is unsaved
    throw err;
  }
  showSaveState('Saved');
  tellSaved(); // the preview and the build assistant show the restored draft at once
  await publishBar.refresh();
}

// ---------------------------------------------------------------- fields

const fields = byId('config-fields');

function bindText(id, apply) {
  byId(id).addEventListener('input', (event) => {
    apply(event.target.value);
    edited();
  });
}

// Out-of-range numbers get an inline error and are not saved; the last valid value stays.
function bindNumber(id, { min, max, integer = false, optional = false, message, apply }) {
  const input = byId(id);
  // While typing, "1." is not a number yet; it is only an error if the user leaves it so.
  input.addEventListener('change', () => {
    if (input.validity.badInput) setFieldError(input, message);
  });
  input.addEventListener('input', () => {
    if (input.validity.badInput) return;
    const raw = input.value.trim();
    const value = raw === '' ? null : Number(raw);
    const valid = value === null ? optional : value >= min && value <= max && (!integer || Number.isInteger(value));
    setFieldError(input, valid ? '' : message);
    if (!valid) return;
    apply(value);
    edited();
  });
}

bindText('instructions', (value) => { config.instructions = value; });
bindText('opening-statement', (value) => { config.opening_statement = value; });
bindNumber('temperature', {
  min: 0, max: 2, message: 'Temperature must be between 0 and 2',
  apply: (value) => { config.parameters.temperature = value; },
});
bindNumber('max-tokens', {
  min: 1, max: 32000, integer: true, message: 'Max tokens must be between 1 and 32000',
  apply: (value) => { config.parameters.max_tokens = value; },
});
bindNumber('top-k', {
  min: 1, max: 10, integer: true, message: 'Top K must be between 1 and 10',
  apply: (value) => { config.knowledge.top_k = value; },
});
bindNumber('score-threshold', {
  min: 0, max: 1, optional: true, message: 'Score threshold must be between 0 and 1',
  apply: (value) => { config.knowledge.score_threshold = value; },
});

const retrievalMode = byId('retrieval-mode');
retrievalMode.addEventListener('change', () => {
  config.knowledge.retrieval_mode = retrievalMode.value;
  edited();
});

// ---------------------------------------------------------------- model

const modelSelect = byId('model');
const modelKey = (model) => JSON.stringify({ provider_id: model.provider_id, name: model.name });
const sameModel = (a, b) => a.provider_id === b.provider_id && a.name === b.name;

function renderModels() {
  const active = models.filter((model) => model.active);
  const options = [h('option', { value: '' }, 'No model')];
  for (const model of active) {
    options.push(h('option', { value: modelKey(model) }, `${model.provider_name} / ${model.name}`));
  }
  const current = config.model;
  // A model deactivated after it was chosen stays visible, so the user sees why publish fails.
  if (current && !active.some((model) => sameModel(model, current))) {
    const known = models.find((model) => sameModel(model, current));
    const label = known ? `${known.provider_name} / ${known.name}` : current.name;
    options.push(h('option', { value: modelKey(current) }, `${label} (inactive)`));
  }
  modelSelect.replaceChildren(...options);
  modelSelect.value = current ? modelKey(current) : '';
}

modelSelect.addEventListener('change', () => {
  config.model = modelSelect.value ? JSON.parse(modelSelect.value) : null;
  edited();
});

// ---------------------------------------------------------------- suggested questions

const questionList = byId('questions');
const addQuestionButton = byId('add-question');

function saveQuestions() {
  config.suggested_questions = questions.filter((question) => question.trim() !== '');
  edited();
}

function renderQuestions() {
  questionList.replaceChildren(...questions.map((question, index) => {
    const number = index + 1;
    const input = h('input', { id: `question-${number}`, value: question, maxlength: 200, autocomplete: 'off' });
    input.addEventListener('input', () => {
      questions[index] = input.value;
      saveQuestions();
    });
    return h('li', { class: 'question' },
      h('label', { for: input.id, class: 'visually-hidden' }, `Suggested question ${number}`),
      input,
      h('button', {
        type: 'button', class: 'button danger-quiet', 'aria-label': `Remove question ${number}`,
        onclick: () => {
          questions.splice(index, 1);
          renderQuestions();
          saveQuestions();
          (byId(`question-${Math.min(number, questions.length)}`) || addQuestionButton).focus();
        },
      }, 'Remove'));
  }));
  addQuestionButton.disabled = questions.length >= MAX_QUESTIONS;
}

addQuestionButton.addEventListener('click', () => {
  questions.push('');
  renderQuestions();
  byId(`question-${questions.length}`).focus();
});

// ---------------------------------------------------------------- tools

function renderTools() {
  renderToolList(tools, config, edited);
}

// ---------------------------------------------------------------- knowledge

const datasetSelect = byId('dataset-select');
const attachButton = byId('attach-dataset');

function renderKnowledge() {
  renderTools(); // knowledge search is available only with a dataset attached
  const attached = config.knowledge.dataset_ids;
  const nameOf = (id) => datasets.find((dataset) => dataset.id === id)?.name || 'Unknown dataset';
  byId('attached-datasets').replaceChildren(...(attached.length
    ? attached.map((id) => h('li', { class: 'row' },
      h('span', { class: 'row-main' }, nameOf(id)),
      h('button', {
        type: 'button', class: 'button danger-quiet', 'aria-label': `Remove ${nameOf(id)}`,
        onclick: () => {
          config.knowledge.dataset_ids = attached.filter((other) => other !== id);
          renderKnowledge();
          edited();
          datasetSelect.focus();
        },
      }, 'Remove')))
    : [h('li', { class: 'empty' }, 'No datasets attached')]));

  const available = datasets.filter((dataset) => !attached.includes(dataset.id));
  datasetSelect.replaceChildren(...(available.length
    ? available.map((dataset) => h('option', { value: dataset.id }, dataset.name))
    : [h('option', { value: '' }, datasets.length ? 'All datasets are attached' : 'No datasets yet')]));
  attachButton.disabled = !available.length;
}

attachButton.addEventListener('click', () => {
  if (!datasetSelect.value) return;
  config.knowledge.dataset_ids = [...config.knowledge.dataset_ids, datasetSelect.value];
  renderKnowledge();
  edited();
});

bindModeration({ config: () => config, edited });
bindOutputs({ config: () => config, edited });

// ---------------------------------------------------------------- load

// Three request waves: the agent with the lists that name no agent; then what belongs to the
// agent (an unknown agent shows only "Agent not found"); then, with the draft shown, its
// versions and variables beside the build assistant and the preview.
async function load() {
  const lists = Promise.all([
    api.get('/console/api/models').then((body) => body.data),
    api.get('/console/api/tools').then((body) => body.data),
    api.get('/console/api/datasets').then((body) => body.data),
  ]);
  lists.catch(() => {}); // reported below, once the agent is known to exist
  const detail = await loadAgent('Configure');
  if (!detail) return;
  try {
    [[models, tools, datasets]] = await Promise.all([lists, loadFiles()]);
  } catch (err) {
    showAlert(byId('load-error'), `Could not load the configuration: ${err.message}`);
    return;
  }
  publishBar.update(detail);
  showDraft(detail.draft);
  const duplicateButton = byId('duplicate-agent');
  duplicateButton.addEventListener('click', async () => {
    if (await settle()) openDuplicateDialog(detail);
  });
  duplicateButton.disabled = false;
  const history = Promise.all([versionHistory.refresh(), loadEnvVars()]).then(
    () => { fields.disabled = false; },
    (err) => {
      showAlert(byId('load-error'), `Could not load the configuration: ${err.message}`);
      fields.disabled = false;
    },
  );
  await Promise.all([history, mountBuildAssistant(draftHandle, { tools, datasets }), mountPreview(draftHandle)]);
}

// Shows a draft in every field: at load, after a restore and after "Load latest".
function showDraft(draft) {
  config = structuredClone(draft.config);
  revision = draft.revision;
  sync.known(draft);
  questions = [...config.suggested_questions];
  byId('instructions').value = config.instructions;
  byId('opening-statement').value = config.opening_statement;
  byId('temperature').value = config.parameters.temperature;
  byId('max-tokens').value = config.parameters.max_tokens;
  byId('top-k').value = config.knowledge.top_k;
  byId('score-threshold').value = config.knowledge.score_threshold ?? '';
  retrievalMode.value = config.knowledge.retrieval_mode;
  renderModels();
  renderQuestions();
  renderTools();
  renderKnowledge();
  showModeration(config.moderation);
  showOutputs(config.outputs);
  showSkills(config.skills);
}

// What the preview and the build assistant see of the draft: they read it, wait for it to be
// saved, hold the fields while they change it on the server, and show the draft it became.
const draftHandle = {
  config: () => config,
  revision: () => revision,
  settle,
  onSaved: (listener) => savedListeners.push(listener),
  hold: (on) => { fields.disabled = on; },
  replace(draft) {
    showDraft(draft);
    onSaved(draft);
  },
};
mountSkills(draftHandle);

load().finally(pageLoaded);
