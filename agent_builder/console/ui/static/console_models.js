// The console's own models on the model providers page (docs/console.md, "Console models"): the
// build assistant's decision model, chosen among the active chat models, and the speech-to-text
// model of voice input, a provider and the name of its transcription model.
import { api } from './api.js';
import { byId, h, showAlert } from './dom.js';

const key = (ref) => JSON.stringify({ provider_id: ref.provider_id, name: ref.name });

export function mountConsoleModels() {
  const form = byId('console-models-form');
  const decision = byId('decision-model');
  const speechProvider = byId('speech-provider');
  const speechModel = byId('speech-model');
  const save = byId('save-console-models');
  const status = byId('console-models-status');
  const error = byId('console-models-error');

  // Redraws the choices from the providers as they are now (after adding, deleting, activating).
  async function refresh() {
    const [providers, chosen] = await Promise.all([
      api.get('/console/api/model-providers').then((body) => body.data),
      api.get('/console/api/system-models'),
    ]);
    const active = providers.flatMap((provider) => provider.models.filter((model) => model.active)
      .map((model) => h('option', { value: key(model) }, `${provider.name} / ${model.name}`)));
    const current = chosen.decision_model;
    const gone = current && !active.some((option) => option.value === key(current));
    decision.replaceChildren(h('option', { value: '' }, 'None'), ...active,
      gone ? h('option', { value: key(current) }, `${current.name} (inactive)`) : null);
    decision.value = current ? key(current) : '';
    speechProvider.replaceChildren(h('option', { value: '' }, 'None'),
      ...providers.map((provider) => h('option', { value: provider.id }, provider.name)));
    speechProvider.value = chosen.speech_to_text_model?.provider_id || '';
    speechModel.value = chosen.speech_to_text_model?.name || '';
    save.disabled = false;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    showAlert(error, '');
    const name = speechModel.value.trim();
    const body = {
      decision_model: decision.value ? JSON.parse(decision.value) : null,
      speech_to_text_model: speechProvider.value && name ? { provider_id: speechProvider.value, name } : null,
    };
    save.disabled = true;
    try {
      await api.put('/console/api/system-models', body);
      status.textContent = 'Saved console models';
    } catch (err) {
      status.textContent = '';
      showAlert(error, `Could not save the console models: ${err.message}`);
    } finally {
      save.disabled = false;
    }
  });

  return { refresh };
}
