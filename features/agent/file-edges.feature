@core
Feature: Agent files at their edges
  Empty files, names with spaces, other scripts and several dots, the limit of 20 files an agent
  holds, and uploads still in progress when the next starts or the user leaves: each shows the
  user what happened, and nothing uploaded is lost.

  Background:
    Given a basic configured agent has been created via API

  Scenario: An empty file is refused with its reason and nothing is listed
    When I open the agent's configure page
    And I upload an empty agent file "blank.txt"
    Then I see exactly the file error "Upload failed: The file is empty."
    And the agent files are exactly:
      | name |
    And the file count reads "0 of 20 files"
    And the console holds exactly these agent files:
      | name |

  Scenario Outline: A file named "<name>" keeps its exact name in the list, after a refresh and in the API
    When I open the agent's configure page
    And I upload the agent file "<name>" containing "Kept under its own name."
    Then the file status reads "Uploaded <name>"
    And the agent files are exactly:
      | name   |
      | <name> |
    And the console holds exactly these agent files:
      | name   |
      | <name> |
    When I refresh the page
    Then the agent files are exactly:
      | name   |
      | <name> |

    Examples:
      | name                        |
      | meeting notes 2026.md       |
      | Überblick café – naïve.txt  |
      | report.v2.final.csv         |
      | データ 一覧.json              |

  Scenario: Deleting a file deletes only that one, not the file whose name starts the same
    Given the agent has the file "notes.txt" uploaded via API
    And the agent has the file "notes.txt.md" uploaded via API
    When I open the agent's configure page
    And I delete the agent file "notes.txt"
    Then the agent files are exactly:
      | name         |
      | notes.txt.md |
    When I refresh the page
    Then the agent files are exactly:
      | name         |
      | notes.txt.md |

  Scenario: The twentieth file is accepted, and then the upload field says why it takes no more
    Given the agent has 19 files uploaded via API
    When I open the agent's configure page
    Then the file count reads "19 of 20 files"
    And the file upload field is enabled
    When I upload the agent file "twentieth.txt" containing "The last place."
    Then the file count reads "20 of 20 files: delete a file to upload another."
    And the file upload field is disabled
    And the agent files list "twentieth.txt"
    When I delete the agent file "file-01.txt"
    Then the file count reads "19 of 20 files"
    And the file upload field is enabled
    And the agent files list "twentieth.txt"
    When I refresh the page
    Then the file count reads "19 of 20 files"
    And the agent files list "twentieth.txt"

  Scenario: Two uploads started at once for the last place: one is kept, the other refused with the limit
    Given the agent has 19 files uploaded via API
    When I open the agent's configure page
    And the console holds the next file upload
    And I upload the agent file "late.txt" containing "Started first, answered last."
    And I upload the agent file "quick.txt" containing "Started second, answered first."
    Then the file count reads "20 of 20 files: delete a file to upload another."
    When the held file upload is answered
    Then I see exactly the file error "Upload failed: An agent can have at most 20 files. Delete a file to upload another."
    And the file count reads "20 of 20 files: delete a file to upload another."
    And the agent files do not list "late.txt"
    And the agent files list "quick.txt"
    And the console holds 20 agent files without "late.txt"

  Scenario: An upload still in progress when the next one starts keeps its own status and both are kept
    When I open the agent's configure page
    And the console holds the next file upload
    And I upload the agent file "first.txt" containing "Held by the scenario."
    Then the file status reads "Uploading first.txt…"
    When I upload the agent file "second.txt" containing "Goes straight through."
    Then the file status reads "Uploaded second.txt · Uploading first.txt…"
    And the agent files are exactly:
      | name       |
      | second.txt |
    When the held file upload is answered
    Then the file status reads "Uploaded first.txt"
    And the agent files are exactly:
      | name       |
      | second.txt |
      | first.txt  |
    When I refresh the page
    Then the agent files are exactly:
      | name       |
      | second.txt |
      | first.txt  |

  Scenario: Leaving through the navigation while a file uploads waits for the upload, which is kept
    When I open the agent's configure page
    And the console holds the next file upload
    And I upload the agent file "handbook.md" containing "Still on its way."
    And I go to the agent roster through the navigation
    Then the file status reads "Uploading handbook.md…"
    When the held file upload is released
    Then I see the agent roster
    When I open the agent's configure page
    Then the agent files are exactly:
      | name        |
      | handbook.md |

  Scenario: Reloading while a file uploads asks first, and staying keeps the upload going
    When I open the agent's configure page
    And the console holds the next file upload
    And I upload the agent file "handbook.md" containing "Still on its way."
    And I reload the page and choose to stay when the browser asks
    Then the file status reads "Uploading handbook.md…"
    When the held file upload is answered
    Then the file status reads "Uploaded handbook.md"
    And the agent files are exactly:
      | name        |
      | handbook.md |
    When I refresh the page
    Then the agent files are exactly:
      | name        |
      | handbook.md |
