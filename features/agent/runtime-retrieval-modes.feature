@agent-backend-runtime @external-model @stable-model
Feature: Knowledge retrieval modes proven through replies
  When the agent decides, knowledge is searched only when the model calls the
  Knowledge search tool; before every message, the user's question is searched
  first, the model is sent the passages found, and the reply cites them on a
  knowledge_retrieval card. Detaching a dataset stops its retrieval from the
  next message on. Model calls replay from cassettes; the passages sent travel
  in the system message, so each scenario proves them through the recorded call.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API

  @knowledge-fixture
  Scenario: Retrieval before every message sends the model the passages found for the question
    Given the ready knowledge dataset is available
    And the agent's knowledge has been set via API:
      | field          | value                       |
      | datasets       | the ready knowledge dataset |
      | retrieval mode | before every message        |
      | top k          | 1                           |
    When I open the agent's configure page
    Then the preview's knowledge line says "Knowledge: retrieved before every message (top K 1, no score threshold)"
    When I ask the preview "What are your instructions for COBALT-42?"
    Then the preview's "knowledge_retrieval" card cites exactly:
      | source                                                    |
      | e2e-seed-ready-knowledge · orbital-greenhouse-handbook.md |
    And the preview's reply mentions "The cycle is logged under the maintenance code COBALT-42."
    And the preview has no "knowledge_search" card
    And the model was instructed exactly as when its answers were recorded

  @knowledge-fixture
  Scenario: When the agent decides, the question is searched only when the model calls the search
    Given the ready knowledge dataset is available
    And the agent has the tool "knowledge_search" enabled via API
    And the agent's knowledge has been set via API:
      | field          | value                       |
      | datasets       | the ready knowledge dataset |
      | retrieval mode | when the agent decides      |
      | top k          | 1                           |
    When I open the agent's configure page
    Then the preview's knowledge line says "Knowledge: searched when the agent decides"
    When I ask the preview "What are your instructions for COBALT-42?"
    Then the preview's reply mentions "My instructions: You are the E2E runnable agent."
    And the preview has no "knowledge_retrieval" card
    When I ask the preview "Please search the knowledge base for COBALT-42"
    Then the preview's "knowledge_search" card cites exactly:
      | source                                                    |
      | e2e-seed-ready-knowledge · orbital-greenhouse-handbook.md |
    And the preview's reply mentions "COBALT-42"
    And the preview has no "knowledge_retrieval" card
    And the model was instructed exactly as when its answers were recorded

  @web-app-runtime @dual-retrieval-fixture
  Scenario: The dual retrieval agent's reply cites both of its datasets
    Given the dual retrieval agent is available
    When I open the dual retrieval agent's web app
    And I send the message "Please search the knowledge base for COBALT-42 AMBER-SIGNAL-3"
    Then the web app's "knowledge_search" card cites exactly:
      | source                                                    |
      | e2e-seed-secondary-knowledge · harbor-lighthouse-log.md   |
      | e2e-seed-ready-knowledge · orbital-greenhouse-handbook.md |
    And the agent's reply mentions "Tool knowledge_search returned:"

  @dual-retrieval-fixture
  Scenario: A dataset detached in the page is not searched from the next message on
    Given the dual retrieval agent is available
    And the agent's knowledge has been set via API:
      | field          | value                               |
      | datasets       | the dual retrieval agent's datasets |
      | retrieval mode | before every message                |
      | top k          | 5                                   |
    When I open the agent's configure page
    And I ask the preview "What are your instructions for COBALT-42 and AMBER-SIGNAL-3?"
    Then the preview's "knowledge_retrieval" card cites exactly:
      | source                                                    |
      | e2e-seed-secondary-knowledge · harbor-lighthouse-log.md   |
      | e2e-seed-ready-knowledge · orbital-greenhouse-handbook.md |
    When I remove the attached dataset "e2e-seed-secondary-knowledge"
    Then the knowledge section lists exactly the datasets:
      | dataset                  |
      | e2e-seed-ready-knowledge |
    And the configuration should be saved automatically
    When I ask the preview "What are your instructions for COBALT-42 and AMBER-SIGNAL-3?"
    Then the preview's "knowledge_retrieval" card cites exactly:
      | source                                                    |
      | e2e-seed-ready-knowledge · orbital-greenhouse-handbook.md |
      | e2e-seed-ready-knowledge · support-desk-faq.md            |
    And the preview's reply mentions "COBALT-42"
    And the model was instructed exactly as when its answers were recorded
