@core
Feature: Content moderation
  An agent can moderate questions and answers against a list of keywords
  (whole words and phrases, whatever the case): a flagged question never
  reaches the model and is answered with the preset reply, on every surface,
  stored and marked moderated. The configure page checks the list's limits.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Keywords and preset replies are saved with the draft
    When I open the agent's configure page
    And I enter the moderation keywords:
      """
      zebra
      black market
      """
    And I turn on moderation of questions
    And I write the preset reply to questions "I cannot talk about that."
    And I turn on moderation of answers
    And I write the preset reply to answers "That answer was withheld."
    Then the configuration should be saved automatically
    And the moderation card shows:
      | field                     | value                     |
      | keywords                  | zebra / black market      |
      | moderate questions        | on                        |
      | preset reply to questions | I cannot talk about that. |
      | moderate answers          | on                        |
      | preset reply to answers   | That answer was withheld. |
    When I refresh the page
    Then the moderation card shows:
      | field                     | value                     |
      | keywords                  | zebra / black market      |
      | moderate questions        | on                        |
      | preset reply to questions | I cannot talk about that. |
      | moderate answers          | on                        |
      | preset reply to answers   | That answer was withheld. |
    And the agent's draft moderation is exactly:
      | field                     | value                     |
      | keywords                  | zebra / black market      |
      | moderate questions        | on                        |
      | preset reply to questions | I cannot talk about that. |
      | moderate answers          | on                        |
      | preset reply to answers   | That answer was withheld. |

  Scenario: A hundredth keyword is kept and a hundred and first refused
    Given the agent moderates questions on 99 keywords via API
    When I open the agent's configure page
    And I add the moderation keyword "keyword-100"
    Then the configuration should be saved automatically
    And no moderation field shows an error
    And the moderation card lists the keywords "keyword-1" to "keyword-100"
    When I add the moderation keyword "keyword-101"
    Then the moderation "keywords" says "At most 100 keywords: this list has 101."
    And the agent's draft moderates on exactly the keywords "keyword-1" to "keyword-100"

  Scenario: Keywords that differ only in case are refused until one goes
    When I open the agent's configure page
    And I enter the moderation keywords:
      """
      Zebra
      zebra
      """
    Then the moderation "keywords" says "\"Zebra\" and \"zebra\" are the same keyword: keywords ignore case."
    When I enter the moderation keywords:
      """
      Zebra
      """
    Then the configuration should be saved automatically
    And no moderation field shows an error
    And the agent's draft moderation is exactly:
      | field                     | value |
      | keywords                  | Zebra |
      | moderate questions        | off   |
      | preset reply to questions |       |
      | moderate answers          | off   |
      | preset reply to answers   |       |

  Scenario: Moderating questions waits for its preset reply
    When I open the agent's configure page
    And I enter the moderation keywords:
      """
      zebra
      """
    Then the configuration should be saved automatically
    When I turn on moderation of questions
    Then the moderation "preset reply to questions" says "Moderating questions needs a preset reply."
    And the agent's draft moderation is exactly:
      | field                     | value |
      | keywords                  | zebra |
      | moderate questions        | off   |
      | preset reply to questions |       |
      | moderate answers          | off   |
      | preset reply to answers   |       |
    When I write the preset reply to questions "Not a topic for us."
    Then the configuration should be saved automatically
    And no moderation field shows an error
    And the agent's draft moderation is exactly:
      | field                     | value               |
      | keywords                  | zebra               |
      | moderate questions        | on                  |
      | preset reply to questions | Not a topic for us. |
      | moderate answers          | off                 |
      | preset reply to answers   |                     |

  Scenario: A flagged question in the preview gets the preset reply without any model
    Given the agent moderates questions with the keywords "zebra" and "black market" and the preset reply "I cannot talk about that." via API
    When I open the agent's configure page
    And I ask the preview "Where is the BLACK   Market?"
    Then the preview replies "I cannot talk about that."
    And the preview reply is marked "Moderated question: answered with the preset reply, without the model."
    And the preview conversation is stored as:
      | role      | content                      | moderated |
      | user      | Where is the BLACK   Market? | input     |
      | assistant | I cannot talk about that.    | input     |

  @needs-test-hooks
  Scenario: A flagged question in the web app gets the preset reply, also after a reload
    Given the agent moderates questions with the keywords "zebra" and "black market" and the preset reply "I cannot talk about that." via API
    And the agent has been published via the test seeding router
    When I open the agent's web app
    And I ask the web app "Tell me about Zebra stripes"
    Then the web app answers "I cannot talk about that."
    And the web app conversation is stored as:
      | role      | content                     | moderated |
      | user      | Tell me about Zebra stripes | input     |
      | assistant | I cannot talk about that.   | input     |
    When I reload the web app
    Then the web app answers "I cannot talk about that."

  @needs-test-hooks
  Scenario: A flagged question through the service API gets the preset reply, marked moderated
    Given the agent moderates questions with the keywords "zebra" and "black market" and the preset reply "I cannot talk about that." via API
    And the agent has been published via the test seeding router
    And an API key has been created via API
    When I ask the service API "zebra?" with that key
    Then the service API answered "I cannot talk about that.", moderated "input"
    When I ask the service API "And the black market?" with that key in the same conversation
    Then the service API answered "I cannot talk about that.", moderated "input"
    And the service API conversation is stored as:
      | role      | content                   | moderated |
      | user      | zebra?                    | input     |
      | assistant | I cannot talk about that. | input     |
      | user      | And the black market?     | input     |
      | assistant | I cannot talk about that. | input     |
