@core
Feature: Build draft and published indicators
  The draft is where configuration lives until publish; the publish bar and
  the roster say whether an agent has a published version.

  Scenario: A new agent is a draft that has never been published
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    Then the publish bar shows "Not published"
    And the agent has no published version

  Scenario: Saving draft edits publishes nothing
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    And I replace the instructions with "Still only a draft."
    Then the configuration should be saved automatically
    And the publish bar shows "Not published"
    And the agent has no published version

  Scenario: The roster marks an unpublished agent as a draft
    Given a basic configured agent has been created via API
    When I open the agent roster
    Then the agent roster shows the agent as "Draft"
