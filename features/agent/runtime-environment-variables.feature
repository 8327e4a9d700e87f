@agent-backend-runtime @web-app-runtime @external-model @stable-model
Feature: Environment variables at run time
  An agent's variables reach it when it runs: {{env.NAME}} in the instructions
  is replaced by the value before the model sees them, and every variable is
  set for its sandbox commands (never the host's own). A secret one's value
  never shows: wherever a command prints it, it reads [secret NAME].

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

  Scenario: Variables are set for sandbox commands, and a secret one never shows
    Given the agent has the variable E2E_REGION set to "eu-west" via API
    And the agent has the secret variable E2E_TOKEN set to "tok-e2e-9876543210" via API
    And the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `echo region=$E2E_REGION shown=$E2E_TOKEN length=${#E2E_TOKEN}`"
    Then the tool "sandbox_shell" shows the result "region=eu-west shown=[secret E2E_TOKEN] length=18"
    And the agent replies "Tool sandbox_shell returned: region=eu-west shown=[secret E2E_TOKEN] length=18"
    And the page never shows the secret "tok-e2e-9876543210"
