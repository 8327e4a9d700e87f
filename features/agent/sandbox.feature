@agent-backend-runtime
Feature: The sandbox serves only the runtime
  Commands run in the sandbox (shellctl) only on behalf of the agent runtime and the console,
  which hold its token; anyone else on its network is refused.

  Scenario: The sandbox refuses commands without the runtime's token
    Given the agent runtime backend is available
    Then the sandbox refuses a command sent without its token
    And the sandbox refuses a command sent with another token
