// The configure page's preview: a conversation with the saved draft (chat_view.js), kept apart
// from the web app's. Each question first waits for pending edits to be saved; an edit saved
// while a reply streams applies from the next question, and the pane says so.
import { agentId, agentPath } from './agent_page.js';
import { ChatSession, bindComposer } from './chat_view.js';
import { byId, h } from './dom.js';
import { bindVoiceInput } from './voice.js';

// The opening statement and suggested questions are the draft's, as they are saved.
function showDraftStart(session, config, suggestions) {
  const { opening_statement: opening, suggested_questions: questions } = config;
  session.log.querySelector('.opening')?.remove();
  if (opening) {
    session.log.prepend(h('article', { class: 'message assistant opening', 'aria-label': 'Opening statement' },
      h('p', { class: 'message-role' }, session.agentName), h('div', { class: 'message-text' }, opening)));
  }
  suggestions.replaceChildren(...questions.map((question) => h('button', {
    type: 'button', class: 'button suggestion', disabled: Boolean(session.streaming),
    onclick: () => {
      session.input.value = question;
      session.form.requestSubmit();
    },
  }, question)));
  suggestions.hidden = !questions.length;
}

// Which knowledge retrieval the saved draft's replies use, so a reply's sources can be read.
function showRetrieval(el, { knowledge, tools }) {
  const { dataset_ids: datasets, retrieval_mode: mode, top_k: topK, score_threshold: threshold } = knowledge;
  const searchTool = tools.some((tool) => tool.name === 'knowledge_search' && tool.enabled);
  el.hidden = !datasets.length;
  if (mode === 'every_message') {
    const limit = threshold === null ? 'no score threshold' : `score threshold ${threshold}`;
    el.textContent = `Knowledge: retrieved before every message (top K ${topK}, ${limit})`;
  } else {
    el.textContent = searchTool ? 'Knowledge: searched when the agent decides'
      : 'Knowledge: not used (turn on Knowledge search, or retrieve before every message)';
  }
}

function previewSession(draft, notice, controls) {
  const log = byId('preview-conversation');
  return new ChatSession({
    apiBase: `${agentPath}/preview`,
    agentName: byId('agent-name').textContent,
    log,
    scroller: log,
    form: byId('preview-composer'),
    input: byId('preview-message'),
    sendButton: byId('preview-send'),
    stopButton: byId('preview-stop'),
    controls,
    storageKey: `agent-builder.preview.${agentId}`,
    moderationNotes: true,
    beforeSend: async () => {
      notice.textContent = '';
      await draft.settle(); // the preview answers from the draft as saved
    },
  });
}

export async function mountPreview(draft) {
  const notice = byId('preview-notice');
  const restart = byId('preview-restart');
  const voice = byId('preview-voice');
  const suggestions = byId('preview-suggestions');
  const controls = () => [restart, voice, ...suggestions.querySelectorAll('button')].filter(Boolean);
  const session = previewSession(draft, notice, controls);
  const retrieval = byId('preview-knowledge');
  draft.onSaved(() => {
    showDraftStart(session, draft.config(), suggestions);
    showRetrieval(retrieval, draft.config());
    if (session.streaming) notice.textContent = 'Your saved changes apply from the next message.';
  });
  restart.addEventListener('click', () => {
    session.startNew();
    notice.textContent = 'Started a new preview conversation.';
  });
  bindComposer(session);
  if (voice) {
    bindVoiceInput({
      button: voice,
      input: session.input,
      statusEl: byId('preview-voice-status'),
      alertEl: byId('preview-voice-error'),
      transcribeUrl: '/console/api/audio/transcriptions',
    });
  }
  showDraftStart(session, draft.config(), suggestions);
  showRetrieval(retrieval, draft.config());
  await session.restore();
  restart.disabled = false;
}
