@core
Feature: Configure entry
  Opening an agent shows its whole draft, section by section, with the
  publish bar telling whether it has ever been published.

  Scenario: The configure page shows every section of the draft
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    Then I see the configure sections:
      | section             |
      | Instructions        |
      | Model               |
      | Advanced settings   |
      | Opening statement   |
      | Suggested questions |
      | Tools               |
      | Knowledge           |
      | Skills              |
      | Files               |
    And the instructions field shows the agent's instructions
    And the publish bar shows "Not published"

  Scenario: The roster link opens the agent's configure page
    Given a basic configured agent has been created via API
    When I open the agent roster
    And I open the agent from the roster
    Then I see the agent's configure page

  Scenario: The configure page offers no model when none is active
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    Then the model picker shows "No model"

  Scenario: A part of the configuration that fails to load is named, and the draft stays editable
    Given a basic configured agent has been created via API
    And the browser will lose the configure page's request for the agent's variables
    When I open the agent's configure page
    Then the configure page says it could not load the configuration: "Could not reach the server. Check your connection."
    And the instructions field shows the agent's instructions
    When I replace the instructions with "Edited after a failed load."
    Then the configuration should be saved automatically
    And the agent's draft instructions are "Edited after a failed load."

  Scenario: The configure page of a deleted agent says it does not exist
    Given a basic configured agent has been created via API
    And the agent has been deleted via API
    When I open the agent's configure page
    Then the agent page is titled "Agent not found" and says "This agent does not exist or was deleted."

  Scenario: The access point says so when it cannot load the agent
    Given a basic configured agent has been created via API
    And the browser will lose the agent page's request for the agent
    When I open the agent's access point
    Then the agent page is titled "Agent unavailable" and says "Could not reach the server. Check your connection."
