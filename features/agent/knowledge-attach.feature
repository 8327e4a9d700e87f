@prepared @knowledge-fixture
Feature: Attaching knowledge to an agent
  Agents answer from attached datasets; attaching one is a draft setting that
  survives a refresh and never changes the seeded dataset.

  Background:
    Given the ready knowledge dataset is available
    And a basic configured agent has been created via API

  Scenario: Attaching the ready knowledge dataset remains after refresh
    When I open the agent's configure page
    And I attach the ready knowledge dataset
    Then the configuration should be saved automatically
    And only the ready knowledge dataset is attached
    When I refresh the page
    Then only the ready knowledge dataset is attached
    And the agent's draft uses the ready knowledge dataset

  Scenario: Detaching a dataset removes it from the draft
    Given the ready knowledge dataset has been attached via API
    When I open the agent's configure page
    And I detach the ready knowledge dataset
    Then the configuration should be saved automatically
    And the agent's draft uses no dataset

  Scenario: The retrieval test finds the ready knowledge token
    When I open the ready knowledge dataset's page
    And I test retrieval with the ready knowledge query
    Then the retrieval results include the ready knowledge token
