@agent-backend-runtime @service-api-runtime @external-model @stable-model
Feature: Chatting through the service API
  Integrators call the published agent with an app API key, blocking or
  streaming, continue conversations with the ids the answer returned, read
  them back by those ids, and are refused while the service API is switched
  off, with the code the error body names.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API
    And the agent has been published via API
    And an API key has been created via API

  Scenario: A blocking request returns the answer
    When I send "Reply with exactly: E2E-BLOCKING-ANSWER" to the service API in blocking mode
    Then the service API answer is "E2E-BLOCKING-ANSWER"

  Scenario: A streaming request follows the golden event sequence
    When I send "Reply with exactly: E2E-STREAMED-ANSWER" to the service API in streaming mode
    Then the streamed answer is "E2E-STREAMED-ANSWER"
    And the service API event sequence matches the golden "service-api-streaming"

  Scenario: A streamed answer's first words arrive before its end
    Given the model provider streams the next reply one chunk every 300 ms
    When I send "Reply with exactly: E2E streamed to the client in several parts" to the service API in streaming mode
    Then the streamed answer is "E2E streamed to the client in several parts"
    And the first words of the streamed answer arrived at least 600 ms before its end

  Scenario: A conversation continues by its id
    When I send "Reply with exactly: E2E-FIRST-TURN" to the service API in blocking mode
    And I send "Reply with exactly: E2E-SECOND-TURN" to the service API in the same conversation
    Then the service API answer is "E2E-SECOND-TURN"
    And the service API conversation has 2 exchanges
    And the message id and usage the service API returned are those of the conversation's last reply

  Scenario: A streamed conversation continues with the ids its message_end returned
    When I send "Reply with exactly: E2E-STREAMED-FIRST-TURN" to the service API in streaming mode
    And I send "Reply with exactly: E2E-STREAMED-SECOND-TURN" to the service API in streaming mode in the same conversation
    Then the streamed answer is "E2E-STREAMED-SECOND-TURN"
    And the service API conversation has 2 exchanges
    And the message id and usage the service API returned are those of the conversation's last reply

  Scenario: A conversation is readable only where it was started
    Given another API key has been created via API
    And another published agent has an API key
    When I send "Reply with exactly: E2E-PRIVATE-TURN" to the service API in blocking mode
    Then the service API answer is "E2E-PRIVATE-TURN"
    And that key reads that conversation
    And that key cannot read that conversation as another user
    And the agent's other API key cannot read that conversation
    And the agent's web app cannot read that conversation
    And the other agent's API key cannot read that conversation

  Scenario: A disabled service API refuses chat until it is restored
    Given the agent's service API has been disabled via API
    When I send "Reply with exactly: E2E-REFUSED" to the service API in blocking mode
    Then the service API refuses with status 403 and the code "service_api_disabled"
    When the agent's service API is enabled again via API
    And I send "Reply with exactly: E2E-RESTORED" to the service API in blocking mode
    Then the service API answer is "E2E-RESTORED"
