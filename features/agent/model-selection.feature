@prepared @stable-model
Feature: Model selection
  The configure page offers every active chat model; the chosen model is part
  of the draft like any other setting.

  Background:
    Given the stable chat model is available
    And a basic configured agent has been created via API

  Scenario: The model picker offers the stable model
    When I open the agent's configure page
    Then the model picker offers the stable model

  Scenario: A selected model remains selected after refresh
    When I open the agent's configure page
    And I select the stable model
    Then the configuration should be saved automatically
    And the model picker shows the stable model
    When I refresh the page
    Then the model picker shows the stable model
    And the agent's draft uses the stable model
