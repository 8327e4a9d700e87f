@core
Feature: Advanced settings
  Model parameters have bounds; a value outside them is explained next to the
  field and never saved, while a valid value is saved like any other edit.

  Background:
    Given a basic configured agent has been created via API

  Scenario Outline: <setting> <value> is out of range, rejected visibly and not saved
    When I open the agent's configure page
    And I set the "<setting>" field to "<value>"
    Then the "<setting>" field shows the error "<error>"
    When I replace the instructions with "Bounds are enforced."
    Then the configuration should be saved automatically
    And the agent's draft <parameter> is still <default>

    Examples:
      | setting     | value | error                                  | parameter   | default |
      | Temperature | 2.5   | Temperature must be between 0 and 2    | temperature | 0.7     |
      | Temperature | -1    | Temperature must be between 0 and 2    | temperature | 0.7     |
      | Max tokens  | 0     | Max tokens must be between 1 and 32000 | max tokens  | 1024    |
      | Max tokens  | 40000 | Max tokens must be between 1 and 32000 | max tokens  | 1024    |

  Scenario: A temperature left unfinished is explained once the field is left, and not saved
    When I open the agent's configure page
    And I type "e" into the "Temperature" field and leave it
    Then the "Temperature" field shows the error "Temperature must be between 0 and 2"
    When I replace the instructions with "Unfinished numbers are not saved."
    Then the configuration should be saved automatically
    And the agent's draft temperature is still 0.7

  Scenario: A valid temperature is saved and shown after refresh
    When I open the agent's configure page
    And I set the "Temperature" field to "1.3"
    Then the configuration should be saved automatically
    And the "Temperature" field shows "1.3"
    When I refresh the page
    Then the "Temperature" field shows "1.3"

  Scenario Outline: <setting> <value> is within range and saved
    When I open the agent's configure page
    And I set the "<setting>" field to "<value>"
    Then the configuration should be saved automatically
    And the agent's draft <parameter> is now <value>

    Examples:
      | setting     | value | parameter   |
      | Temperature | 0     | temperature |
      | Temperature | 2     | temperature |
      | Max tokens  | 1     | max tokens  |
      | Max tokens  | 32000 | max tokens  |
