@microphone @speech-to-text-model
Feature: Voice input
  The microphone button records what the user says, the console transcribes it
  with the speech-to-text model, and the text waits in the composer to be read
  and sent. These scenarios run in a browser whose fake microphone plays the
  seeded voice clip; model calls replay from cassettes.

  @agent-backend-runtime @external-model @stable-model
  Scenario: Voice input fills the preview's composer and the reply answers it
    Given the agent runtime backend is available
    And the stable chat model is available
    And the speech-to-text model is available
    And a runnable agent has been created via API
    When I open the agent's configure page
    And I record a voice message in the preview
    Then the preview message field holds what the microphone heard
    When I send the preview message
    Then the preview replies "E2E-VOICE-ANSWER"

  @agent-backend-runtime @web-app-runtime @external-model @stable-model
  Scenario: Voice input fills the web app's composer and the reply answers it
    Given the agent runtime backend is available
    And the stable chat model is available
    And the speech-to-text model is available
    And a runnable agent has been created via API
    And the agent has been published via API
    When I open the agent's web app
    And I record a voice message in the web app
    Then the web app message field holds what the microphone heard
    When I send the web app message
    Then the agent replies "E2E-VOICE-ANSWER"

  @external-model
  Scenario: A failed transcription is explained and nothing is sent
    Given the speech-to-text model is available
    And a basic configured agent has been created via API
    And the model provider fails the next transcription with status 500
    When I open the agent's configure page
    And I record a voice message in the preview
    Then voice input in the preview explains "Transcription failed"
    And voice input in the preview explains "HTTP 500"
    And the preview message field is empty

  @external-model
  Scenario: While a recording is transcribed the preview says so and the microphone waits
    Given the speech-to-text model is available
    And a basic configured agent has been created via API
    When I open the agent's configure page
    And I record a voice message in the preview while the console holds its transcription
    Then the held transcription has been sent
    And voice input in the preview says "Transcribing…"
    And the preview's microphone cannot be used
    When the held transcription is answered
    Then voice input in the preview says "Transcribed: review the message, then send it."
    And the preview message field holds what the microphone heard

  @prepared
  Scenario: Denied microphone permission is explained
    Given the speech-to-text model is available
    And a basic configured agent has been created via API
    And the browser denies microphone access
    When I open the agent's configure page
    And I start a voice message in the preview
    Then voice input in the preview explains "Microphone access was denied"
