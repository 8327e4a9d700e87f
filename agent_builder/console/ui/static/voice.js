// Voice input: the microphone button records with getUserMedia and Web Audio (the samples as
// the browser captures them, no echo cancellation, noise suppression or gain control), sends the
// recording as WAV to the console, which transcribes it (docs/console.md, "Voice input"), and
// puts the text in the composer for the user to read and send.
import { showAlert } from './dom.js';

const MAX_SECONDS = 60;
const RECORD_LABEL = 'Record voice message';
const STOP_LABEL = 'Stop recording';

function microphoneError(err) {
  if (!navigator.mediaDevices?.getUserMedia) return 'Voice input needs a secure (https) connection.';
  if (err?.name === 'NotAllowedError' || err?.name === 'SecurityError') {
    return 'Microphone access was denied. Allow this site to use the microphone in your browser settings, then try again.';
  }
  if (err?.name === 'NotFoundError') return 'No microphone was found. Connect one and try again.';
  return `The microphone could not be started: ${err?.message || err}`;
}

// 16-bit mono PCM WAV of `samples` (floats in [-1, 1]). Digital silence (zeros) before and after
// the sound is dropped: it carries nothing, and the same sound then always makes the same file.
export function wavOf(samples, sampleRate) {
  let start = 0;
  let end = samples.length;
  const pcm = Int16Array.from(samples, (v) => Math.round(Math.max(-1, Math.min(1, v)) * (v < 0 ? 0x8000 : 0x7fff)));
  while (start < end && pcm[start] === 0) start += 1;
  while (end > start && pcm[end - 1] === 0) end -= 1;
  const body = pcm.subarray(start, end);
  const view = new DataView(new ArrayBuffer(44 + body.byteLength));
  const text = (offset, value) => [...value].forEach((char, i) => view.setUint8(offset + i, char.charCodeAt(0)));
  text(0, 'RIFF'); view.setUint32(4, 36 + body.byteLength, true); text(8, 'WAVE');
  text(12, 'fmt '); view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true); view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true); view.setUint16(34, 16, true);
  text(36, 'data'); view.setUint32(40, body.byteLength, true);
  body.forEach((value, i) => view.setInt16(44 + i * 2, value, true));
  return { blob: new Blob([view.buffer], { type: 'audio/wav' }), empty: body.length === 0 };
}

// Both captures hand every block of the microphone's channel 0 to `onBlock(samples, sampleRate)`
// as it comes; once the track is stopped, `drain()` resolves after the last block.

// The track's own blocks (a minute of 10 ms ones), queued while the page is busy: none is lost
// or padded. Web Audio renders on a clock of its own: in Chromium, a block the microphone sends
// late becomes 10 ms of silence in the middle of the recording, and blocks that pile up are dropped.
function readTrack(track, onBlock) {
  const reader = new MediaStreamTrackProcessor({ track, maxBufferSize: MAX_SECONDS * 100 }).readable.getReader();
  const reading = (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const block = new Float32Array(read.value.numberOfFrames);
      read.value.copyTo(block, { planeIndex: 0, format: 'f32-planar' });
      onBlock(block, read.value.sampleRate);
      read.value.close();
    }
  })();
  return { drain: () => reading };
}

// Browsers without MediaStreamTrackProcessor: an audio worklet taps the samples Web Audio renders,
// at the microphone's own rate (no resampling between it and the file).
async function tapWithWorklet(stream, onBlock) {
  const { sampleRate } = stream.getAudioTracks()[0].getSettings();
  const context = new AudioContext(sampleRate ? { sampleRate } : {});
  try {
    await context.audioWorklet.addModule('/static/voice_capture.js');
  } catch (err) {
    context.close();
    throw err;
  }
  const node = new AudioWorkletNode(context, 'voice-capture');
  node.port.onmessage = ({ data }) => onBlock(data, context.sampleRate);
  context.createMediaStreamSource(stream).connect(node);
  return { drain: () => context.close() };
}

// One recording: started by start(), ended by finish() with the WAV.
class Recording {
  constructor(onProgress) {
    this.onProgress = onProgress;
    this.chunks = [];
    this.length = 0;
    this.sampleRate = 0;
  }

  async start() {
    this.stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    const onBlock = (samples, sampleRate) => {
      this.chunks.push(samples);
      this.length += samples.length;
      this.sampleRate = sampleRate;
      this.onProgress(this.length / sampleRate);
    };
    // Read at once: the microphone is already sending.
    this.capture = 'MediaStreamTrackProcessor' in window
      ? readTrack(this.stream.getAudioTracks()[0], onBlock)
      : await tapWithWorklet(this.stream, onBlock);
  }

  async finish() {
    this.stream?.getTracks().forEach((track) => track.stop());
    if (!this.capture) return null;
    await this.capture.drain();
    const samples = new Float32Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      samples.set(chunk, offset);
      offset += chunk.length;
    }
    return wavOf(samples, this.sampleRate);
  }
}

async function transcribe(url, blob) {
  const form = new FormData();
  form.append('file', blob, 'recording.wav');
  let response;
  try {
    response = await fetch(url, { method: 'POST', body: form, credentials: 'same-origin' });
  } catch {
    throw new Error('Transcription failed: could not reach the server.');
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.message || `Transcription failed (HTTP ${response.status}).`);
  return body.text;
}

// `button` toggles recording; `statusEl` says what is happening, `alertEl` why it failed; the
// text lands in `input` (after what is already typed there).
export function bindVoiceInput({ button, input, statusEl, alertEl, transcribeUrl }) {
  let recording = null;

  function show(state, label = RECORD_LABEL) {
    statusEl.textContent = state;
    button.textContent = label;
    button.setAttribute('aria-pressed', String(label === STOP_LABEL));
  }

  async function start() {
    showAlert(alertEl, '');
    recording = new Recording((seconds) => {
      if (recording) statusEl.textContent = `Recording… ${seconds.toFixed(1)} s`;
      if (seconds >= MAX_SECONDS) stop();
    });
    show('Starting the microphone…', STOP_LABEL);
    try {
      await recording.start();
    } catch (err) {
      recording.finish().catch(() => {});
      recording = null;
      show('');
      showAlert(alertEl, microphoneError(err));
    }
  }

  async function stop() {
    const current = recording;
    recording = null;
    button.disabled = true;
    show('Transcribing…');
    try {
      const wav = await current.finish();
      if (!wav || wav.empty) throw new Error('Nothing was recorded: the microphone sent only silence.');
      const text = await transcribe(transcribeUrl, wav.blob);
      if (!text) throw new Error('No speech was recognized in the recording.');
      input.value = input.value.trim() ? `${input.value.trim()} ${text}` : text;
      show('Transcribed: review the message, then send it.');
      input.focus();
    } catch (err) {
      show('');
      showAlert(alertEl, err.message);
    } finally {
      button.disabled = input.disabled;
    }
  }

  button.addEventListener('click', () => (recording ? stop() : start()));
}
