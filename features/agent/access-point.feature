@core
Feature: Access point before the first publish
  Until an agent has a published version, none of its access surfaces can be
  used, and each one says why.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Every access surface is unavailable before the first publish
    When I open the agent's access point
    Then the access cards each say "Publish the agent to enable access.":
      | card        |
      | Web app     |
      | Service API |
      | API keys    |
    And the access controls are disabled

  Scenario: The access point is one tab away from configure
    When I open the agent's configure page
    And I switch to the "Access point" tab
    Then I see the agent's access point
