@agent-backend-runtime @web-app-runtime @external-model @stable-model
Feature: Environment variables at run time
  An agent's variables reach it when it runs: {{env.NAME}} in the instructions
  is replaced by the value before the model sees them, and the variables that
  are not secret are set for its sandbox commands (never the host's own).

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API

  Scenario: A variable used in the instructions reaches the model
    Given the agent has the variable SUPPORT_CODE set to "E2E-CODE-4711" via API
    And another tab saves the instructions "Your support code is {{env.SUPPORT_CODE}}."
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "What are your instructions?"
    Then the agent replies "My instructions: Your support code is E2E-CODE-4711."
    And the model was instructed exactly as when its answers were recorded

  Scenario: Plain variables are set for sandbox commands, secret ones are not
    Given the agent has the variable E2E_REGION set to "eu-west" via API
    And the agent has the secret variable E2E_TOKEN set to "tok-e2e-9876543210" via API
    And the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `echo region=$E2E_REGION hidden=${E2E_TOKEN:-unset}`"
    Then the tool "sandbox_shell" shows the result "region=eu-west hidden=unset"
    And the agent replies "Tool sandbox_shell returned: region=eu-west hidden=unset"
