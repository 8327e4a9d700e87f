@core
Feature: Environment variables
  An agent's environment variables live in its advanced settings. Names follow
  one rule, explained where they are typed; secret values are write-only and
  shown masked; a .env file can be imported, and every line it cannot use is
  listed by number. Each change is saved at once.

  Background:
    Given a basic configured agent has been created via API

  Scenario: An added variable is listed and kept
    When I open the agent's configure page
    And I add the variable API_BASE_URL with the value "https://api.example.test"
    Then the variables are listed:
      | name         | value                    |
      | API_BASE_URL | https://api.example.test |
    When I refresh the page
    Then the variables are listed:
      | name         | value                    |
      | API_BASE_URL | https://api.example.test |

  Scenario: A secret variable is shown masked and never revealed
    When I open the agent's configure page
    And I add the secret variable SERVICE_TOKEN with the value "tok-e2e-0123456789"
    Then the variable SERVICE_TOKEN is shown masked as "…6789"
    And the page never shows the secret "tok-e2e-0123456789"
    When I refresh the page
    Then the variable SERVICE_TOKEN is shown masked as "…6789"
    And the page never shows the secret "tok-e2e-0123456789"
    And the console API lists SERVICE_TOKEN as a secret masked as "…6789", without its value

  Scenario Outline: Instructions that use a secret variable as <reference> are not saved, and the page says why
    Given the agent has the secret variable SERVICE_TOKEN set to "tok-e2e-0123456789" via API
    When I open the agent's configure page
    And I replace the instructions with "Call the API with <reference>."
    Then the publish bar shows "Save failed: the instructions use a secret variable."
    And the "Instructions" field shows the error "The instructions use {{env.SERVICE_TOKEN}}, a secret variable"
    And the agent's draft instructions are "You are the E2E basic agent. Answer briefly and politely."

    Examples: every spelling that reaches the model as the value
      | reference                 |
      | {{env.SERVICE_TOKEN}}     |
      | {{ env.SERVICE_TOKEN }}   |
      | {{env.SERVICE_TOKEN  }}   |

  Scenario: A variable the instructions use cannot be added as a secret
    Given another tab saves the instructions "Call the API with {{env.SERVICE_TOKEN}}."
    When I open the agent's configure page
    And I add the secret variable SERVICE_TOKEN with the value "tok-e2e-0123456789"
    Then the variable dialog says "SERVICE_TOKEN cannot be secret: the draft's instructions use {{env.SERVICE_TOKEN}}"
    And no variable was saved

  Scenario: A name that breaks the rule is refused with the rule explained
    When I open the agent's configure page
    And I try to add a variable named "api-key"
    Then the variable dialog says "Use capital letters, digits and underscores, not starting with a digit"
    And no variable was saved

  Scenario Outline: A variable named <name> is refused: the sandbox sets it itself for every command
    When I open the agent's configure page
    And I try to add a variable named "<name>"
    Then the variable dialog says "<name> is set by the sandbox itself and cannot be changed."
    And no variable was saved

    Examples:
      | name |
      | PATH |
      | HOME |

  Scenario: Adding a variable under a name the agent already has is refused and keeps the value
    Given the agent has the variable REGION set to "eu-west" via API
    When I open the agent's configure page
    And I add the variable REGION with the value "us-east"
    Then the variable dialog says "A variable named REGION already exists: edit it instead."
    And the variables are listed:
      | name   | value   |
      | REGION | eu-west |

  Scenario: Editing a variable changes its value
    Given the agent has the variable REGION set to "eu-west" via API
    When I open the agent's configure page
    And I change the variable REGION to "us-east"
    Then the variables are listed:
      | name   | value   |
      | REGION | us-east |

  Scenario: Deleting a variable removes it
    Given the agent has the variable REGION set to "eu-west" via API
    And the agent has the variable TIMEOUT_S set to "30" via API
    When I open the agent's configure page
    And I delete the variable REGION
    Then the variable REGION is not listed
    And the variables are listed:
      | name      | value |
      | TIMEOUT_S | 30    |

  Scenario: A variable whose deletion is under way cannot be deleted twice
    Given the agent has the variable REGION set to "eu-west" via API
    When I open the agent's configure page
    And the console holds the next variable deletion
    And I delete the variable REGION
    Then the held variable deletion has been sent
    And the variable REGION cannot be deleted again while its deletion is under way
    When the held variable deletion is answered
    Then the variable REGION is not listed
    And the variables section lists 0 variables

  Scenario: An agent holds at most 100 variables: the last place is taken, the next one refused
    When I open the agent's configure page
    And I import an env file of 99 variables
    Then the variables section lists 99 variables
    When I add the variable LAST_PLACE with the value "the hundredth"
    Then the variables section lists 100 variables
    When I try to add a variable named "ONE_TOO_MANY"
    Then the variable dialog says "An agent has at most 100 variables; delete some first."
    And the variables section lists 100 variables

  Scenario: Importing a valid .env file adds and updates variables
    Given the agent has the variable REGION set to "eu-west" via API
    When I open the agent's configure page
    And I import an env file containing:
      """
      # deployment settings
      export REGION=us-east
      GREETING="Hello there"
      SINGLE='quoted $value'
      EMPTY=
      """
    Then the import reports "Imported 4 variables: 3 added, 1 updated, 0 lines skipped."
    And the variables are listed:
      | name     | value         |
      | EMPTY    |               |
      | GREETING | Hello there   |
      | REGION   | us-east       |
      | SINGLE   | quoted $value |

  Scenario: Importing a .env file with invalid lines lists the skipped lines
    When I open the agent's configure page
    And I import an env file containing:
      """
      GOOD=1
      lower_case=2
      NO_EQUALS_SIGN
      UNCLOSED="open
      PATH=/usr/bin
      GOOD=3
      """
    Then the import lists the skipped lines:
      | line | reason                                          |
      | 2    | 'lower_case' is not a valid name                |
      | 3    | No '=' after 'NO_EQUALS_SIGN'                   |
      | 4    | The value's opening " has no closing quote      |
      | 5    | PATH is set by the sandbox itself               |
    And the import reports "GOOD is set on lines 1, 6: the last one counts."
    And the variables are listed:
      | name | value |
      | GOOD | 3     |

  Scenario: Importing a file that is not text saves nothing
    When I open the agent's configure page
    And I import an env file that is not text
    Then the variables section shows the error "The file is not a UTF-8 text file: nothing was imported."
    And no variable was saved

  Scenario: Importing a .env file over a secret variable keeps it secret, with the new value
    Given the agent has the secret variable SERVICE_TOKEN set to "tok-e2e-0123456789" via API
    When I open the agent's configure page
    And I import an env file containing:
      """
      SERVICE_TOKEN=tok-e2e-imported-4321
      """
    Then the import reports "Imported 1 variable: 0 added, 1 updated, 0 lines skipped."
    And the variable SERVICE_TOKEN is shown masked as "…4321"
    And the page never shows the secret "tok-e2e-imported-4321"
    And the console API lists SERVICE_TOKEN as a secret masked as "…4321", without its value

  Scenario: Importing the same .env file again updates its variables and adds none
    When I open the agent's configure page
    And I import an env file of 60 variables
    Then the import reports "Imported 60 variables: 60 added, 0 updated, 0 lines skipped."
    When I import an env file of 60 variables
    Then the import reports "Imported 60 variables: 0 added, 60 updated, 0 lines skipped."
    And the variables section lists 60 variables

  Scenario: Cancelling a variable's edit keeps its value and gives the focus back
    Given the agent has the variable REGION set to "eu-west" via API
    When I open the agent's configure page
    And I change the variable REGION to "us-east" but cancel
    Then no variable dialog is open and the focus is back on the variable REGION's Edit button
    And the variables are listed:
      | name   | value   |
      | REGION | eu-west |
    When I refresh the page
    Then the variables are listed:
      | name   | value   |
      | REGION | eu-west |
