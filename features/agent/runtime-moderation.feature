@agent-backend-runtime @external-model @stable-model
Feature: Content moderation while the agent answers
  A flagged question never reaches the model, not even as history later; a
  flagged answer is replaced by the preset reply while it streams, before its
  keyword is shown, on every surface. Model calls replay from cassettes.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API

  @web-app-runtime
  Scenario: A flagged question never reaches the model, and the next one is asked without it
    Given the agent moderates questions with the keywords "zebra" and the preset reply "I cannot talk about that." via API
    And the agent has been published via API
    When I open the agent's web app
    And I ask the web app "Tell me about ZEBRA stripes"
    Then the web app answers "I cannot talk about that."
    When I ask the web app "Reply with exactly: zebras graze in E2E-MODERATION-PARK"
    Then the web app answers "zebras graze in E2E-MODERATION-PARK"
    And the web app conversation matches the golden "web-app-moderated-conversation"
    And the web app conversation is stored as:
      | role      | content                                                | moderated |
      | user      | Tell me about ZEBRA stripes                            | input     |
      | assistant | I cannot talk about that.                              | input     |
      | user      | Reply with exactly: zebras graze in E2E-MODERATION-PARK | -         |
      | assistant | zebras graze in E2E-MODERATION-PARK                    | -         |

  @web-app-runtime
  Scenario: A flagged answer is replaced in the web app while it streams
    Given the agent moderates answers with the keywords "launch code" and the preset reply "That answer was withheld." via API
    And the agent has been published via API
    And the model provider streams the next reply one chunk every 300 ms
    When I open the agent's web app
    And I watch the replies as they arrive
    And I ask the web app "Reply with exactly: Here is the launch code for you"
    Then the web app answers "That answer was withheld."
    And the web app reply showed "Here is the " while it streamed, then became "That answer was withheld.", never showing "launch code"
    And the web app conversation is stored as:
      | role      | content                                             | moderated |
      | user      | Reply with exactly: Here is the launch code for you | -         |
      | assistant | That answer was withheld.                           | output    |

  Scenario: A flagged answer is replaced in the preview while it streams
    Given the agent moderates answers with the keywords "launch code" and the preset reply "That answer was withheld." via API
    And the model provider streams the next reply one chunk every 300 ms
    When I open the agent's configure page
    And I watch the preview's replies as they arrive
    And I ask the preview "Reply with exactly: Here is the launch code for you"
    Then the preview replies "That answer was withheld."
    And the preview reply showed "Here is the " while it streamed, then became "That answer was withheld.", never showing "launch code"
    And the preview reply is marked "Moderated answer: replaced by the preset reply."
    And the preview conversation is stored as:
      | role      | content                                             | moderated |
      | user      | Reply with exactly: Here is the launch code for you | -         |
      | assistant | That answer was withheld.                           | output    |

  @service-api-runtime
  Scenario: A flagged answer is replaced in the service API's stream
    Given the agent moderates answers with the keywords "launch code" and the preset reply "That answer was withheld." via API
    And the agent has been published via API
    And an API key has been created via API
    When I ask the service API "Reply with exactly: Here is the launch code for you" with that key, streaming
    Then the service API streamed "Here is the ", then replaced it with "That answer was withheld.", moderated "output"
    And the service API conversation is stored as:
      | role      | content                                             | moderated |
      | user      | Reply with exactly: Here is the launch code for you | -         |
      | assistant | That answer was withheld.                           | output    |
