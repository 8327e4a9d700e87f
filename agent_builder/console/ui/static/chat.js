// Public web app: a conversation with the published agent (chat_view.js). The conversation id is
// kept per site in localStorage so a reload restores the conversation from the server.
import { ChatSession, bindComposer } from './chat_view.js';
import { byId, pageLoaded } from './dom.js';
import { bindVoiceInput } from './voice.js';

const siteToken = document.querySelector('main').dataset.siteToken;
const apiBase = `/chat/${encodeURIComponent(siteToken)}/api`;
const newButton = byId('new-conversation');
const voiceButton = byId('voice');
const suggestions = [...document.querySelectorAll('.suggestion')];

const session = new ChatSession({
  apiBase,
  agentName: document.querySelector('h1').textContent,
  log: byId('conversation'),
  form: byId('composer'),
  input: byId('message'),
  sendButton: byId('send'),
  stopButton: byId('stop'),
  controls: () => [newButton, ...suggestions, voiceButton].filter(Boolean),
  storageKey: `agent-builder.conversation.${siteToken}`,
  onConversation: (id) => { newButton.hidden = !id; },
  composerAlert: byId('composer-error'),
});

bindComposer(session, suggestions);
newButton.addEventListener('click', () => session.startNew());
if (voiceButton) {
  bindVoiceInput({
    button: voiceButton,
    input: session.input,
    statusEl: byId('voice-status'),
    alertEl: byId('voice-error'),
    transcribeUrl: `${apiBase}/audio/transcriptions`,
  });
}
session.restore().finally(pageLoaded);
