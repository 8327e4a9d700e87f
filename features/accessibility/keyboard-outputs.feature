@keyboard
Feature: Output variables with the keyboard alone
  A keyboard user adds an output on the configure page: Add output puts the
  focus in the new output's name, so typing names it at once.

  Background:
    Given a basic configured agent has been created via API

  Scenario: An output is added and named with the keyboard alone
    When I open the agent's configure page
    And I press Tab until the button "Add output" is focused
    And I press Enter
    Then the textbox "Output name" is focused
    When I type "summary" into the focused field
    Then the configuration should be saved automatically
    And the agent's draft outputs are exactly:
      | output  | type   | items | description |
      | summary | string | -     |             |
