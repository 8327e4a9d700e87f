@core
Feature: Agent files
  Agents carry files that users upload and delete on the configure page;
  unsupported types and files over the 2 MiB limit are refused with a visible reason.

  Background:
    Given a basic configured agent has been created via API

  Scenario: An uploaded file is listed and remains after refresh
    When I open the agent's configure page
    And I upload the agent file "notes.txt" containing "Opening hours are 9 to 5."
    Then the agent files list "notes.txt"
    When I refresh the page
    Then the agent files list "notes.txt"

  Scenario: A file of an unsupported type is refused visibly
    When I open the agent's configure page
    And I upload the agent file "installer.exe" containing "MZ"
    Then I see the file error "not supported"
    And the agent files do not list "installer.exe"

  Scenario: A file over the size limit is refused visibly
    When I open the agent's configure page
    And I upload an agent file "huge.txt" of 3 MiB
    Then I see the file error "too large"
    And the agent files do not list "huge.txt"

  Scenario: A file one byte over the size limit is refused visibly
    When I open the agent's configure page
    And I upload an agent file "just-over.txt" of 2 MiB plus 1 byte
    Then I see the file error "too large"
    And the agent files do not list "just-over.txt"

  Scenario: A file of exactly the size limit is accepted
    When I open the agent's configure page
    And I upload an agent file "limit.txt" of 2 MiB
    Then the agent files list "limit.txt"

  Scenario: Deleting a file removes it
    Given the agent has the file "old.md" uploaded via API
    When I open the agent's configure page
    And I delete the agent file "old.md"
    Then the agent files do not list "old.md"
    When I refresh the page
    Then the agent files do not list "old.md"

  Scenario: A file uploaded under a name already listed is kept beside it, and deleting one keeps the other
    Given the agent has the file "notes.txt" uploaded via API
    When I open the agent's configure page
    And I upload the agent file "notes.txt" containing "The second notes."
    Then the agent files list "notes.txt" twice
    When I delete one of the agent files "notes.txt"
    Then the agent files list "notes.txt" once
    When I refresh the page
    Then the agent files list "notes.txt" once
