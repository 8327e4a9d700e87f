@core @needs-test-hooks
Feature: A bad request is answered with what to fix
  An integrator's mistake gets a 4xx JSON answer: a code, the field it is
  about, and a message saying what is wrong and where (docs/console.md,
  "Errors"), never a 5xx or a page. The deployed lane asks the same through
  its proxy.

  Background:
    Given a basic configured agent has been created via API
    And the agent's service API is "enabled"

  Scenario Outline: A chat request with <mistake> is refused, naming the field
    When its client sends "POST /v1/chat-messages" with the body:
      """
      <body>
      """
    Then the route answers "422" "invalid_request"
    And the refusal names the field "<field>" and says "<message>"

    Examples:
      | mistake                    | body                                                                          | field         | message                                                                                             |
      | a body that is not JSON    | {"query": "Hello", "response_mode": "blocking", "user": "e2e",}               | body          | body: Request body is not valid JSON (Expecting property name enclosed in double quotes at character 63). |
      | a field it does not know   | {"query": "Hello", "response_mode": "blocking", "user": "e2e", "colour": "red"} | colour        | colour: Extra inputs are not permitted                                                              |
      | no question                | {"response_mode": "blocking", "user": "e2e"}                                  | query         | query: Field required                                                                               |
      | an unknown response mode   | {"query": "Hello", "response_mode": "fast", "user": "e2e"}                    | response_mode | response_mode: Input should be 'blocking' or 'streaming'                                            |
      | a question that is no text | {"query": 5, "response_mode": "blocking", "user": "e2e"}                      | query         | query: Input should be a valid string                                                               |
      | two mistakes               | {"response_mode": "fast", "user": "e2e"}                                      | query         | query: Field required (and 1 more)                                                                  |
