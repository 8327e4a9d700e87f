@core
Feature: Publish refuses invalid drafts
  Publishing snapshots the draft into a version, so a draft that could not
  run is refused with every reason shown and nothing is published.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Publishing a draft without a model is refused with the reason
    When I open the agent's configure page
    And I publish the agent
    Then publishing is refused with the reasons:
      | reason            |
      | No model selected |
    And the publish bar shows "Not published"
    And the agent has no published version

  Scenario: Publishing a draft with blank instructions lists every reason
    When I open the agent's configure page
    And I replace the instructions with only whitespace
    Then the configuration should be saved automatically
    When I publish the agent
    Then publishing is refused with the reasons:
      | reason                |
      | No model selected     |
      | Instructions are empty |
    And the agent has no published version

  Scenario: Publishing a draft whose model no longer exists is refused
    Given the agent's draft refers to a model that does not exist
    When I open the agent's configure page
    And I publish the agent
    Then publishing is refused with a reason mentioning "was not found or is inactive"
    And the agent has no published version
