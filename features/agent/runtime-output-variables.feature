@agent-backend-runtime @external-model @stable-model
Feature: Output variables in the agent's answers
  The runtime offers the model a set_outputs tool built from the agent's
  declared outputs and checks what it sends: the service API returns the
  outputs beside the answer, blocking and in message_end, and stores them on
  the reply; outputs that do not fit, or none at all, are a failure with its
  own code, shown and stored. Model calls replay from cassettes recorded
  against the reference model.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API
    And the agent declares the outputs via API:
      | output         | type    | items  | description |
      | summary        | string  | -      | One line.   |
      | score          | number  | -      |             |
      | urgent         | boolean | -      |             |
      | tags           | array   | string |             |
      | customer       | object  | -      |             |
      | customer.email | string  | -      |             |
    And the agent has been published via API

  @service-api-runtime
  Scenario: A blocking answer returns the outputs the model set, stored on the reply
    Given an API key has been created via API
    When I send "Set the outputs to {\"summary\": \"Refund sent\", \"score\": 4.5, \"urgent\": false, \"tags\": [\"billing\", \"refund\"], \"customer\": {\"email\": \"ada@example.com\"}}" to the service API in blocking mode
    Then the service API answer is "Tool set_outputs returned: Outputs recorded."
    And the outputs the service API returned are exactly:
      """
      {"summary": "Refund sent", "score": 4.5, "urgent": false, "tags": ["billing", "refund"], "customer": {"email": "ada@example.com"}}
      """
    And the reply read back by the ids the service API returned holds the outputs:
      """
      {"summary": "Refund sent", "score": 4.5, "urgent": false, "tags": ["billing", "refund"], "customer": {"email": "ada@example.com"}}
      """

  @service-api-runtime
  Scenario: A streamed answer's message_end carries the outputs
    Given an API key has been created via API
    When I send "Set the outputs to {\"summary\": \"Streamed\", \"score\": 0, \"urgent\": true, \"tags\": [], \"customer\": {\"email\": \"bo@example.com\"}}" to the service API in streaming mode
    Then the streamed answer is "Tool set_outputs returned: Outputs recorded."
    And the outputs the service API returned are exactly:
      """
      {"summary": "Streamed", "score": 0, "urgent": true, "tags": [], "customer": {"email": "bo@example.com"}}
      """
    And the reply read back by the ids the service API returned holds the outputs:
      """
      {"summary": "Streamed", "score": 0, "urgent": true, "tags": [], "customer": {"email": "bo@example.com"}}
      """

  @service-api-runtime
  Scenario: A conversation continued by its id returns the second answer's own outputs
    Given an API key has been created via API
    When I send "Set the outputs to {\"summary\": \"First\", \"score\": 1, \"urgent\": false, \"tags\": [\"one\"], \"customer\": {\"email\": \"first@example.com\"}}" to the service API in blocking mode
    And I send "Set the outputs to {\"summary\": \"Second\", \"score\": 2, \"urgent\": true, \"tags\": [\"two\"], \"customer\": {\"email\": \"second@example.com\"}}" to the service API in the same conversation
    Then the service API conversation has 2 exchanges
    And the outputs the service API returned are exactly:
      """
      {"summary": "Second", "score": 2, "urgent": true, "tags": ["two"], "customer": {"email": "second@example.com"}}
      """
    And the reply read back by the ids the service API returned holds the outputs:
      """
      {"summary": "Second", "score": 2, "urgent": true, "tags": ["two"], "customer": {"email": "second@example.com"}}
      """

  @service-api-runtime
  Scenario: An answer without the outputs is refused with its own code
    Given an API key has been created via API
    When I send "Reply with exactly: no outputs here" to the service API in blocking mode
    Then the service API refuses with status 502 and the code "outputs_missing"

  @web-app-runtime
  Scenario: Outputs that do not fit their types are a visible, stored failure
    When I open the agent's web app
    And I ask the web app "Set the outputs to {\"summary\": \"Fine\", \"score\": \"high\", \"urgent\": false, \"tags\": [], \"customer\": {\"email\": \"cy@example.com\"}}"
    Then I see the provider error mentioning "The model's outputs did not fit the agent's output variables."
    And the error code shown is "outputs_invalid"
    And the tool "set_outputs" shows an error mentioning "\"score\" must be a number, not str"
    And the web app's reply is stored as failed with the code "outputs_invalid" and no outputs
