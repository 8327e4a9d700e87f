@core
Feature: Output variables
  An agent declares named, typed outputs (string, number, boolean, an object
  with fields of its own, an array of strings, numbers or booleans) that the
  model returns beside its answer. The configure page's Output variables card
  checks names and types as the console does, and renaming an output rewrites
  the instructions that name it as {{outputs.NAME}}.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Outputs of every type are saved with the draft
    When I open the agent's configure page
    And I add the outputs:
      | output         | type    | items  | description             |
      | summary        | string  | -      | The answer in one line. |
      | score          | number  | -      |                         |
      | urgent         | boolean | -      |                         |
      | tags           | array   | number | Ticket numbers.         |
      | customer       | object  | -      |                         |
      | customer.email | string  | -      | Where to write back.    |
    Then the configuration should be saved automatically
    And the outputs card shows:
      | output         | type    | items  | description             |
      | summary        | string  | -      | The answer in one line. |
      | score          | number  | -      |                         |
      | urgent         | boolean | -      |                         |
      | tags           | array   | number | Ticket numbers.         |
      | customer       | object  | -      |                         |
      | customer.email | string  | -      | Where to write back.    |
    When I refresh the page
    Then the outputs card shows:
      | output         | type    | items  | description             |
      | summary        | string  | -      | The answer in one line. |
      | score          | number  | -      |                         |
      | urgent         | boolean | -      |                         |
      | tags           | array   | number | Ticket numbers.         |
      | customer       | object  | -      |                         |
      | customer.email | string  | -      | Where to write back.    |
    And the agent's draft outputs are exactly:
      | output         | type    | items  | description             |
      | summary        | string  | -      | The answer in one line. |
      | score          | number  | -      |                         |
      | urgent         | boolean | -      |                         |
      | tags           | array   | number | Ticket numbers.         |
      | customer       | object  | -      |                         |
      | customer.email | string  | -      | Where to write back.    |

  Scenario: Renaming an output rewrites the instructions that name it, and nothing else
    Given the agent declares the outputs via API:
      | output         | type   | items | description |
      | summary        | string | -     |             |
      | summary_long   | string | -     |             |
      | customer       | object | -     |             |
      | customer.email | string | -     |             |
    And the agent's instructions are via API:
      """
      Put the gist in {{outputs.summary}}, again in {{ outputs.summary }}.
      Keep {{outputs.summary_long}} and the word summary as they are.
      Write to {{outputs.customer.email}} for {{outputs.customer}}.
      """
    When I open the agent's configure page
    And I rename the output "summary" to "gist"
    And I rename the output "customer" to "client"
    Then the instructions field shows:
      """
      Put the gist in {{outputs.gist}}, again in {{ outputs.gist }}.
      Keep {{outputs.summary_long}} and the word summary as they are.
      Write to {{outputs.client.email}} for {{outputs.client}}.
      """
    And the configuration should be saved automatically
    And the outputs card shows:
      | output       | type   | items | description |
      | gist         | string | -     |             |
      | summary_long | string | -     |             |
      | client       | object | -     |             |
      | client.email | string | -     |             |
    And the agent's draft instructions are:
      """
      Put the gist in {{outputs.gist}}, again in {{ outputs.gist }}.
      Keep {{outputs.summary_long}} and the word summary as they are.
      Write to {{outputs.client.email}} for {{outputs.client}}.
      """
    And the agent's draft outputs are exactly:
      | output       | type   | items | description |
      | gist         | string | -     |             |
      | summary_long | string | -     |             |
      | client       | object | -     |             |
      | client.email | string | -     |             |

  Scenario: An output renamed twice while the first rename is still saving keeps its references
    Given the agent declares the outputs via API:
      | output  | type   | items | description |
      | summary | string | -     |             |
    And the agent's instructions are via API:
      """
      Put the gist in {{ outputs.summary }}.
      """
    And the console holds the next draft save
    When I open the agent's configure page
    And I rename the output "summary" to "gist"
    Then the held draft save has been sent
    When I rename the output "gist" to "headline"
    And the held draft save is released
    Then the configuration should be saved automatically
    And the instructions field shows:
      """
      Put the gist in {{ outputs.headline }}.
      """
    And the agent's draft instructions are:
      """
      Put the gist in {{ outputs.headline }}.
      """
    And the agent's draft outputs are exactly:
      | output   | type   | items | description |
      | headline | string | -     |             |

  Scenario: A field renamed inside its object rewrites only that field's references
    Given the agent declares the outputs via API:
      | output         | type   | items | description |
      | customer       | object | -     |             |
      | customer.email | string | -     |             |
      | email          | string | -     |             |
    And the agent's instructions are via API:
      """
      Write to {{outputs.customer.email}}; copy {{outputs.email}}.
      """
    When I open the agent's configure page
    And I rename the output "customer.email" to "address"
    Then the instructions field shows:
      """
      Write to {{outputs.customer.address}}; copy {{outputs.email}}.
      """
    And the configuration should be saved automatically
    And the agent's draft instructions are:
      """
      Write to {{outputs.customer.address}}; copy {{outputs.email}}.
      """
    And the agent's draft outputs are exactly:
      | output           | type   | items | description |
      | customer         | object | -     |             |
      | customer.address | string | -     |             |
      | email            | string | -     |             |

  Scenario: Output names that differ only in case are refused until one is renamed
    Given the agent declares the outputs via API:
      | output  | type   | items | description |
      | summary | string | -     |             |
    When I open the agent's configure page
    And I add an output named "Summary"
    Then the outputs card says "\"summary\" and \"Summary\" are the same output name: names ignore case."
    And the agent's draft outputs are exactly:
      | output  | type   | items | description |
      | summary | string | -     |             |
    When I rename the output "Summary" to "summary_2"
    Then the configuration should be saved automatically
    And the outputs card shows:
      | output    | type   | items | description |
      | summary   | string | -     |             |
      | summary_2 | string | -     |             |
    And the agent's draft outputs are exactly:
      | output    | type   | items | description |
      | summary   | string | -     |             |
      | summary_2 | string | -     |             |

  Scenario Outline: A name that is not well-formed is refused with the reason: <name>
    Given the agent declares the outputs via API:
      | output  | type   | items | description |
      | summary | string | -     |             |
    When I open the agent's configure page
    And I add an output named "<name>"
    Then the outputs card says "<message>"
    And the agent's draft outputs are exactly:
      | output  | type   | items | description |
      | summary | string | -     |             |

    Examples:
      | name       | message                                                                                          |
      | 2nd_place  | \"2nd_place\" is not a valid output name: use letters, digits and underscores, not starting with a digit. |
      | first name | \"first name\" is not a valid output name: use letters, digits and underscores, not starting with a digit. |
      | e-mail     | \"e-mail\" is not a valid output name: use letters, digits and underscores, not starting with a digit.     |

  Scenario: A twentieth output is kept and a twenty-first refused
    Given the agent declares 19 string outputs via API
    When I open the agent's configure page
    And I add an output named "output_20"
    Then the configuration should be saved automatically
    And the agent's draft has the string outputs "output_1" to "output_20"
    When I add an output named "output_21"
    Then the outputs card says "At most 20 outputs: this list has 21."
    And the agent's draft has the string outputs "output_1" to "output_20"

  Scenario: An object output turned into a string loses its fields, and an array gains an item type
    Given the agent declares the outputs via API:
      | output         | type   | items | description   |
      | customer       | object | -     | Who wrote in. |
      | customer.email | string | -     |               |
      | tags           | string | -     |               |
    When I open the agent's configure page
    And I change the type of the output "customer" to "string"
    And I change the type of the output "tags" to "array"
    Then the configuration should be saved automatically
    And the outputs card shows:
      | output   | type   | items  | description   |
      | customer | string | -      | Who wrote in. |
      | tags     | array  | string |               |
    And the agent's draft outputs are exactly:
      | output   | type   | items  | description   |
      | customer | string | -      | Who wrote in. |
      | tags     | array  | string |               |

  Scenario: A removed output and its fields leave the page and the draft
    Given the agent declares the outputs via API:
      | output         | type   | items | description |
      | summary        | string | -     |             |
      | customer       | object | -     |             |
      | customer.email | string | -     |             |
      | customer.name  | string | -     |             |
      | score          | number | -     |             |
    When I open the agent's configure page
    And I remove the output "customer.email"
    And I remove the output "summary"
    Then the configuration should be saved automatically
    And the outputs card shows:
      | output        | type   | items | description |
      | customer      | object | -     |             |
      | customer.name | string | -     |             |
      | score         | number | -     |             |
    And the agent's draft outputs are exactly:
      | output        | type   | items | description |
      | customer      | object | -     |             |
      | customer.name | string | -     |             |
      | score         | number | -     |             |

  Scenario: A copy made from the configure page shows and keeps the original's outputs
    Given the agent declares the outputs via API:
      | output         | type   | items  | description   |
      | summary        | string | -      | One line.     |
      | tags           | array  | number |               |
      | customer       | object | -      |               |
      | customer.email | string | -      |               |
    When I open the agent's configure page
    And I duplicate the agent from its configure page as "copy"
    Then the outputs card shows:
      | output         | type   | items  | description   |
      | summary        | string | -      | One line.     |
      | tags           | array  | number |               |
      | customer       | object | -      |               |
      | customer.email | string | -      |               |
    And the agent's draft outputs are exactly:
      | output         | type   | items  | description   |
      | summary        | string | -      | One line.     |
      | tags           | array  | number |               |
      | customer       | object | -      |               |
      | customer.email | string | -      |               |
    And the copy has the original's draft configuration
