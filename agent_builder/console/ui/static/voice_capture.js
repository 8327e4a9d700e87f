// Audio worklet of voice input (voice.js): hands every block of microphone samples (channel 0)
// to the page as it is captured.
class VoiceCapture extends AudioWorkletProcessor {
  process(inputs) {
    const samples = inputs[0]?.[0];
    if (samples) this.port.postMessage(samples.slice(0));
    return true;
  }
}

registerProcessor('voice-capture', VoiceCapture);
