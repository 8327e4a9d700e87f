@agent-backend-runtime @external-model @stable-model
Feature: Previewing the draft
  The configure page's preview chats with the agent's draft as it is saved,
  never with its published version: replies stream in with their tool cards
  and knowledge sources, can be stopped or started over, and provider failures
  are shown while the composer stays usable. Model calls replay from cassettes.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API

  Scenario: The preview answers a typed question from the draft
    When I open the agent's configure page
    And I ask the preview "Reply with exactly: E2E-PREVIEW-ANSWER"
    Then the preview replies "E2E-PREVIEW-ANSWER"
    And the preview's event stream matches the golden "preview-stream"
    And the preview conversation matches the golden "preview-conversation"

  @web-app-runtime
  Scenario: The preview uses an edit made after publishing while the web app keeps the published version
    Given the agent has been published via API
    When I open the agent's configure page
    And I enable the tool "Sandbox shell"
    Then the configuration should be saved automatically
    When I ask the preview "Please run the command `echo E2E-DRAFT-$((6 * 7))`"
    Then the preview replies "Tool sandbox_shell returned: E2E-DRAFT-42"
    When I open the agent's web app
    And I send the message "Please run the command `echo E2E-DRAFT-$((6 * 7))`"
    Then the agent replies "You said: Please run the command `echo E2E-DRAFT-$((6 * 7))`"

  Scenario: A question asked right after an edit is answered by the edited draft
    When I open the agent's configure page
    And the autosave delay does not run out by itself
    And I enable the tool "Sandbox shell"
    And I ask the preview "Please run the command `echo E2E-AT-ONCE-$((6 * 7))`"
    Then the preview replies "Tool sandbox_shell returned: E2E-AT-ONCE-42"
    And the agent's enabled tools are exactly:
      | tool          |
      | Sandbox shell |

  Scenario: A sandbox command's output reaches the preview reply
    Given the agent has the tool "sandbox_shell" enabled via API
    When I open the agent's configure page
    And I ask the preview "Please run the command `echo E2E-PREVIEW-$((6 * 7))`"
    Then the preview tool "sandbox_shell" shows the result "E2E-PREVIEW-42"
    And the preview replies "Tool sandbox_shell returned: E2E-PREVIEW-42"

  @knowledge-fixture
  Scenario: A knowledge passage reaches the preview reply with its source
    Given the ready knowledge dataset is available
    And the agent has the tool "knowledge_search" enabled via API
    And the ready knowledge dataset has been attached via API
    When I open the agent's configure page
    And I ask the preview "Please search the knowledge base for COBALT-42"
    Then the preview's reply mentions "COBALT-42"
    And the preview tool "knowledge_search" cites "e2e-seed-ready-knowledge · orbital-greenhouse-handbook.md"

  Scenario: A failing provider call in the preview is retried and answered
    Given the model provider fails the next call with status 500
    When I open the agent's configure page
    And I ask the preview "Reply with exactly: E2E-PREVIEW-RETRIED"
    Then the preview replies "E2E-PREVIEW-RETRIED"
    And the preview conversation recorded 1 retry

  Scenario: A provider authentication error in the preview is shown and the composer recovers
    Given the model provider fails the next call with status 401
    When I open the agent's configure page
    And I ask the preview "Reply with exactly: E2E-PREVIEW-NOT-AUTHORIZED"
    Then the preview shows the provider error mentioning "401"
    And the preview composer accepts another message
    When I ask the preview "Reply with exactly: E2E-PREVIEW-RECOVERED"
    Then the preview replies "E2E-PREVIEW-RECOVERED"

  Scenario: Stop in the preview keeps the reply as stopped
    Given the model provider stalls the next call
    When I open the agent's configure page
    And I ask the preview "Reply with exactly: E2E-PREVIEW-NEVER-FINISHES"
    And the model call is provably stalled
    And I stop the preview reply
    Then the preview reply is marked "Stopped"
    And the preview composer accepts another message
    And the preview conversation shows no error

  Scenario: Restart preview forgets the conversation
    When I open the agent's configure page
    And I ask the preview "Reply with exactly: E2E-FIRST-CONVERSATION"
    Then the preview replies "E2E-FIRST-CONVERSATION"
    When I restart the preview
    Then the preview conversation is empty
    When I ask the preview "Reply with exactly: E2E-SECOND-CONVERSATION"
    Then the preview replies "E2E-SECOND-CONVERSATION"
    And the preview shows 1 question
    When I refresh the page
    Then the preview shows 1 question
    And the preview replies "E2E-SECOND-CONVERSATION"

  Scenario: An edit saved while a preview reply streams applies to the next message
    Given the model provider stalls the next call
    When I open the agent's configure page
    And I ask the preview "Reply with exactly: E2E-PREVIEW-SLOW"
    And the model call is provably stalled
    And I enable the tool "Sandbox shell"
    Then the configuration should be saved automatically
    And the preview says "Your saved changes apply from the next message."
    When I stop the preview reply
    And I ask the preview "Please run the command `echo E2E-NEXT-$((6 * 7))`"
    Then the preview replies "Tool sandbox_shell returned: E2E-NEXT-42"
