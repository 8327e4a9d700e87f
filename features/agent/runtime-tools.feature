@agent-backend-runtime @web-app-runtime @external-model @stable-model
Feature: Tools proven through replies
  An agent's enabled tools really run during a chat: the sandbox executes
  commands, JSON is rewritten, knowledge is searched, and each result reaches
  both the tool card and the reply.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API

  Scenario: A sandbox command's exact output reaches the reply
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `echo E2E-SANDBOX-$((6 * 7))`"
    Then the tool "sandbox_shell" shows the result "E2E-SANDBOX-42"
    And the agent replies "Tool sandbox_shell returned: E2E-SANDBOX-42"

  Scenario: A command that exceeds the sandbox timeout is a visible tool error
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `sleep 30`"
    Then the tool "sandbox_shell" shows an error mentioning "Command timed out after"

  Scenario: A visitor's commands see no secret of the host and no other workspace
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `cat /proc/[0-9]*/environ | tr '\0' '\n' | sort -u`"
    Then the tool "sandbox_shell" shows the result "PWD=/workspace"
    And the tool "sandbox_shell" shows no secret of the console
    When I send the message "Please run the command `ls -A ..`"
    Then the tool "sandbox_shell" shows exactly the result "bin dev etc lib lib64 proc sbin tmp usr workspace"
    When I send the message "Please run the command `ls -A /workspace`"
    Then the tool "sandbox_shell" shows exactly the result "(no output)"

  Scenario: A long command output is cut at the tool output limit
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please run the command `printf '%20000s' | tr ' ' x`"
    Then the tool "sandbox_shell" shows the result "[output truncated]"

  Scenario: JSON replace rewrites a document
    Given the agent has the tool "json_replace" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message 'Please set owner.name to E2E-OWNER in this JSON: {"owner": {"name": "nobody"}}'
    Then the tool "json_replace" shows the result '{"owner": {"name": "E2E-OWNER"}}'
    And the agent replies 'Tool json_replace returned: {"owner": {"name": "E2E-OWNER"}}'

  @knowledge-fixture
  Scenario: The agent answers from the ready knowledge dataset
    Given the ready knowledge dataset is available
    And the agent has the tool "knowledge_search" enabled via API
    And the ready knowledge dataset has been attached via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please search the knowledge base for COBALT-42"
    Then the agent's reply mentions "COBALT-42"

  @external-tool @tool-fixture
  Scenario: Web search results reach the reply
    Given the web search tool credential is available
    And the agent has the tool "web_search" enabled via API
    And the agent has been published via API
    When I open the agent's web app
    And I send the message "Please search the web for E2E orbital greenhouses"
    Then the tool "web_search" shows the result "Reference search result 1 for E2E orbital greenhouses"
    And the agent's reply mentions "Reference search result 1 for E2E orbital greenhouses"

  Scenario: A tool's result shows on its card while the agent is still writing the reply
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API
    And the model provider stalls the call after the next one
    When I open the agent's web app
    And I send the message "Please run the command `echo E2E-SANDBOX-$((6 * 7))`"
    And the model call is provably stalled
    Then the tool "sandbox_shell" shows exactly the result "E2E-SANDBOX-42" while the reply is still being written
    When I stop the reply
    Then the reply is marked "Stopped"
    And the tool "sandbox_shell" shows exactly the result "E2E-SANDBOX-42"
