@agent-backend-runtime @web-app-runtime @external-model @stable-model
Feature: Chatting through the published web app
  Visitors chat with a published agent in its web app: replies stream in,
  survive a reload, can be stopped, and provider failures are shown while the
  composer stays usable. Model calls replay from cassettes by default.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API
    And the agent has been published via API

  Scenario: The web app answers a typed question
    When I open the agent's web app
    And I send the message "Reply with exactly: E2E-WEB-ANSWER"
    Then the agent replies "E2E-WEB-ANSWER"
    And the web app conversation matches the golden "web-app-conversation"

  Scenario: The web app answers a suggested question
    When I open the agent's web app
    And I choose the suggested question "Reply with exactly: E2E-SUGGESTED-OK"
    Then the agent replies "E2E-SUGGESTED-OK"

  Scenario: The conversation survives a reload without another model call
    When I open the agent's web app
    And I send the message "Reply with exactly: E2E-KEPT-AFTER-RELOAD"
    Then the agent replies "E2E-KEPT-AFTER-RELOAD"
    And the conversation shows the message "Reply with exactly: E2E-KEPT-AFTER-RELOAD" and then the reply
    When I reload the web app
    Then the conversation shows the message "Reply with exactly: E2E-KEPT-AFTER-RELOAD" and then the reply
    And the agent replies "E2E-KEPT-AFTER-RELOAD"

  Scenario: Stop during a stalled reply keeps the message as stopped
    Given the model provider stalls the next call
    When I open the agent's web app
    And I send the message "Reply with exactly: E2E-NEVER-FINISHES"
    And the model call is provably stalled
    And I stop the reply
    Then the reply is marked "Stopped"
    And the composer accepts another message
    And the conversation shows no error

  Scenario: A failing provider call is retried and answered
    Given the model provider fails the next call with status 500
    When I open the agent's web app
    And I send the message "Reply with exactly: E2E-ANSWERED-AFTER-RETRY"
    Then the agent replies "E2E-ANSWERED-AFTER-RETRY"
    And the conversation recorded 1 retry

  Scenario: A provider that keeps failing is retried twice, then the visitor is told it is unavailable
    Given the model provider fails the next 3 calls with status 500
    When I open the agent's web app
    And I send the message "Reply with exactly: E2E-NEVER-ANSWERED-AFTER-RETRIES"
    Then I see the provider error mentioning "unavailable (500)"
    And the error code shown is "provider_unavailable"
    And the conversation recorded 2 retries
    And the composer accepts another message

  Scenario: A provider authentication error is shown and the composer recovers
    Given the model provider fails the next call with status 401
    When I open the agent's web app
    And I send the message "Reply with exactly: E2E-NOT-AUTHORIZED"
    Then I see the provider error mentioning "401"
    And the error code shown is "provider_auth_failed"
    And the composer accepts another message

  Scenario: A reply shows its first words before it ends
    Given the model provider streams the next reply one chunk every 300 ms
    When I open the agent's web app
    And I watch the replies as they arrive
    And I send the message "Reply with exactly: E2E streamed to the page in several parts"
    Then the agent replies "E2E streamed to the page in several parts"
    And the reply showed its first words at least 600 ms before its end

  @https
  Scenario: A web app embedded on another site keeps its conversation after a reload
    When I open the agent's access point
    And I open the embed dialog
    And I put the embed code on a page of another site and open it
    And I send the message "Reply with exactly: E2E-EMBEDDED-ANSWER"
    Then the agent replies "E2E-EMBEDDED-ANSWER"
    And the conversation shows the message "Reply with exactly: E2E-EMBEDDED-ANSWER" and then the reply
    When I reload the web app
    Then the conversation shows the message "Reply with exactly: E2E-EMBEDDED-ANSWER" and then the reply
    And the agent replies "E2E-EMBEDDED-ANSWER"

  @https
  Scenario: A chat button embedded on another site opens the web app and chats through it
    When I open the agent's access point
    And I open the embed dialog
    And I choose to embed a chat button
    And I put the embed code on a page of another site and open it
    And I open the chat button on the page of another site
    And I send the message "Reply with exactly: E2E-CHAT-BUTTON-ANSWER"
    Then the agent replies "E2E-CHAT-BUTTON-ANSWER"
    And the conversation shows the message "Reply with exactly: E2E-CHAT-BUTTON-ANSWER" and then the reply
