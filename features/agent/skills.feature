@core
Feature: Agent skills
  An agent has a drive of skills: each a folder with a SKILL.md whose front
  matter names and describes it, uploaded on the configure page as a zip or as
  its files. A malformed SKILL.md, a file of another type and an upload over
  the limits are refused with the reason; skills are replaced and removed in
  place, and belong to the draft: versions and copies keep them.

  Background:
    Given a basic configured agent has been created via API

  Scenario: A skill uploaded as a zip of its folder is listed and saved in the draft
    When I open the agent's configure page
    And I upload the skill "pdf-forms" described as "Fills PDF forms." as a zip of its folder
    Then the skills card says "Uploaded pdf-forms.zip"
    And the skills card lists exactly:
      | name      | description      | files   |
      | pdf-forms | Fills PDF forms. | 2 files |
    And the skill count says "1 of 10 skills"
    When I refresh the page
    Then the skills card lists exactly:
      | name      | description      | files   |
      | pdf-forms | Fills PDF forms. | 2 files |
    And the agent's draft skills are exactly:
      | name      | description      | files                   |
      | pdf-forms | Fills PDF forms. | SKILL.md / reference.md |

  Scenario: A skill uploaded as its files is added after the skills already there
    Given the agent has the skill "greeting" described as "Greets visitors." via API
    When I open the agent's configure page
    And I upload the skill "invoice-check" described as "Checks invoices." as its files
    Then the skills card lists exactly:
      | name          | description      | files   |
      | greeting      | Greets visitors. | 1 file  |
      | invoice-check | Checks invoices. | 2 files |
    And the agent's draft skills are exactly:
      | name          | description      | files                   |
      | greeting      | Greets visitors. | SKILL.md                |
      | invoice-check | Checks invoices. | SKILL.md / reference.md |

  Scenario Outline: A SKILL.md without <case> is refused with the reason, and nothing is added
    Given the agent has the skill "greeting" described as "Greets visitors." via API
    When I open the agent's configure page
    And I upload a skill with the front matter "<front matter>"
    Then the skills card shows the error "Upload failed: <reason>"
    And the skills card lists exactly:
      | name     | description      | files  |
      | greeting | Greets visitors. | 1 file |
    And the agent's draft skills are exactly:
      | name     | description      | files    |
      | greeting | Greets visitors. | SKILL.md |

    Examples:
      | case            | front matter                       | reason                                                                            |
      | a name          | description: Fills forms.          | SKILL.md's front matter has no name.                                              |
      | a description   | name: no-description               | SKILL.md's front matter has no description.                                       |
      | a valid name    | name: PDF Forms / description: PDF. | The skill name 'PDF Forms' must be 1 to 64 lowercase letters, digits and hyphens. |

  Scenario: A file of another type and an upload over 1 MiB are refused with the reason
    When I open the agent's configure page
    And I upload the skill "installer" with the extra file "setup.exe"
    Then the skills card shows the error "Upload failed: This file type is not supported. setup.exe: skill files may be .md .txt .py .sh .js .json .yaml .yml .csv .html."
    When I upload the skill "big-reference" with a 1024 KiB reference file
    Then the skills card shows the error "Upload failed: The file is too large. A skill upload may hold at most 1024 KiB."
    And the skills card lists no skills
    And the agent's draft has no skills

  Scenario: A skill named like one the agent has is refused, and replacing it keeps its place
    Given the agent has the skill "greeting" described as "Greets visitors." via API
    And the agent has the skill "farewell" described as "Says goodbye." via API
    When I open the agent's configure page
    And I upload the skill "greeting" described as "Greets visitors again." as its files
    Then the skills card shows the error "Upload failed: The agent already has a skill named greeting: replace it instead."
    When I replace the skill "greeting" with one described as "Greets visitors by name."
    Then the skills card says "Replaced greeting"
    And the skills card lists exactly:
      | name     | description              | files   |
      | greeting | Greets visitors by name. | 2 files |
      | farewell | Says goodbye.            | 1 file  |
    And the agent's draft skills are exactly:
      | name     | description              | files                   |
      | greeting | Greets visitors by name. | SKILL.md / reference.md |
      | farewell | Says goodbye.            | SKILL.md                |

  Scenario: The tenth skill is the last: the upload field says why it is off, and removing one turns it on
    Given the agent has 9 skills via API
    When I open the agent's configure page
    And I upload the skill "tenth" described as "The tenth skill." as its files
    Then the skill count says "10 of 10 skills: remove a skill to add another."
    And the skill upload field is disabled
    When I remove the skill "skill-03"
    Then the skills card says "Removed skill-03"
    And the skill count says "9 of 10 skills"
    And the skill upload field is enabled
    When I refresh the page
    Then the skill count says "9 of 10 skills"
    And the agent's draft skills are exactly:
      | name     | description       | files    |
      | skill-01 | Skill number 1.   | SKILL.md |
      | skill-02 | Skill number 2.   | SKILL.md |
      | skill-04 | Skill number 4.   | SKILL.md |
      | skill-05 | Skill number 5.   | SKILL.md |
      | skill-06 | Skill number 6.   | SKILL.md |
      | skill-07 | Skill number 7.   | SKILL.md |
      | skill-08 | Skill number 8.   | SKILL.md |
      | skill-09 | Skill number 9.   | SKILL.md |
      | tenth    | The tenth skill.  | SKILL.md / reference.md |

  Scenario: A skill uploaded right after an edit keeps the edit
    When I open the agent's configure page
    And I replace the instructions with "Use your skills."
    And I upload the skill "pdf-forms" described as "Fills PDF forms." as its files
    Then the skills card says "Uploaded 2 files"
    And the configuration should be saved automatically
    And the agent's draft instructions are "Use your skills."
    And the agent's draft skills are exactly:
      | name      | description      | files                   |
      | pdf-forms | Fills PDF forms. | SKILL.md / reference.md |

  @needs-test-hooks
  Scenario: A skill removed from the draft comes back with the version restored
    Given the agent has the skill "pdf-forms" described as "Fills PDF forms." via API
    And the agent has been published via the test seeding router
    When I open the agent's configure page
    And I remove the skill "pdf-forms"
    Then the skills card lists no skills
    And the publish bar shows "Unpublished changes"
    When I open version 1 in the version history
    And I restore version 1 to the draft
    Then the skills card lists exactly:
      | name      | description      | files  |
      | pdf-forms | Fills PDF forms. | 1 file |
    And the agent's draft skills are exactly:
      | name      | description      | files    |
      | pdf-forms | Fills PDF forms. | SKILL.md |

  Scenario: A copy of the agent has its skills
    Given the agent has the skill "pdf-forms" described as "Fills PDF forms." via API
    When I open the agent's configure page
    And I duplicate the agent from its configure page as "skills copy"
    Then the skills card lists exactly:
      | name      | description      | files  |
      | pdf-forms | Fills PDF forms. | 1 file |
    And the agent's draft skills are exactly:
      | name      | description      | files    |
      | pdf-forms | Fills PDF forms. | SKILL.md |
