// Public web app: a conversation with the published agent.
import { api } from './api.js';
import { byId, h } from './dom.js';

const siteToken = document.querySelector('main').dataset.siteToken;
const agentName = document.querySelector('h1').textContent;
const log = byId('conversation');
const form = byId('composer');
const input = byId('message');
const sendButton = form.querySelector('button[type="submit"]');
let conversationId = null;

// Returns the text element so a streamed reply can later grow it chunk by chunk.
function appendMessage(role, text) {
  const textEl = h('p', { class: 'message-text' }, text);
  const message = h('div', { class: `message ${role}` },
    h('p', { class: 'message-role' }, role === 'user' ? 'You' : agentName), textEl);
  log.append(message);
  message.scrollIntoView({ block: 'end' });
  return textEl;
}

function setBusy(busy) {
  input.disabled = busy;
  sendButton.disabled = busy;
  for (const button of document.querySelectorAll('.suggestion')) button.disabled = busy;
}

async function send(query) {
  appendMessage('user', query);
  setBusy(true);
  try {
    const body = conversationId ? { query, conversation_id: conversationId } : { query };
    const reply = await api.post(`/chat/${encodeURIComponent(siteToken)}/api/messages`, body, { redirectOn401: false });
    conversationId = reply.conversation_id || conversationId;
    appendMessage('assistant', reply.answer);
  } catch (err) {
    const alert = h('div', { class: 'alert', role: 'alert' }, h('p', {}, err.message));
    log.append(alert);
    alert.scrollIntoView({ block: 'end' });
  } finally {
    setBusy(false);
    input.focus();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const query = input.value.trim();
  if (!query || sendButton.disabled) return;
  input.value = '';
  send(query);
});

// Enter sends, Shift+Enter starts a new line (but not while an IME is composing).
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

for (const button of document.querySelectorAll('.suggestion')) {
  button.addEventListener('click', () => {
    input.value = button.textContent;
    form.requestSubmit();
  });
}
