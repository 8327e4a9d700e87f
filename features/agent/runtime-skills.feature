@agent-backend-runtime @web-app-runtime @external-model @stable-model
Feature: Skills at run time
  An agent's skills are offered to the model by name and description, and
  their files are in the sandbox workspace under skills/<name>/, where a
  command reads them and cannot change them.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API
    And the agent has the skill "house-rules" described as "The house rules for visitors." with the file "rules.md" containing "Quiet hours start at 22:00." via API

  Scenario: A skill's file read in the sandbox reaches the reply
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `cat skills/house-rules/rules.md`"
    Then the tool "sandbox_shell" shows the result "Quiet hours start at 22:00."
    And the agent replies "Tool sandbox_shell returned: Quiet hours start at 22:00."

  Scenario: A command cannot change a skill's file
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `echo changed > skills/house-rules/rules.md; cat skills/house-rules/rules.md`"
    Then the tool "sandbox_shell" shows the result "Read-only file system"
    And the agent's reply mentions "Quiet hours start at 22:00."

  Scenario: The model is offered each skill's name and description
    Given the agent has been published via API
    When I open the agent's web app
    And I send the message "What are your instructions?"
    Then the agent's reply mentions "- house-rules: The house rules for visitors."
    And the model was instructed exactly as when its answers were recorded
