@core
Feature: Knowledge datasets
  Datasets hold scenario-owned documents that are indexed in the background;
  the retrieval test finds their tokens, best match first, in the dataset's own
  enabled segments only.

  Scenario: Creating a dataset from the knowledge page
    When I open the knowledge page
    And I create a dataset named "kb-create" described as "Station handbooks for the E2E crew."
    Then I see the dataset's page
    When I open the knowledge page
    Then the knowledge page lists the dataset described as "Station handbooks for the E2E crew."

  Scenario: An uploaded document is indexed until completed
    Given a dataset has been created via API
    When I open the dataset's page
    And I upload the document "orchids.md" containing:
      """
      # Orchids

      Water orchids once a week. The care token is ORCHID-7731.
      """
    Then the document "orchids.md" reaches the status "completed"

  Scenario: The retrieval test finds a token from an indexed document
    Given a dataset with the document "zephyr.txt" containing "The codename is ZEPHYR-4471." has been indexed via API
    When I open the dataset's page
    And I test retrieval with the query "ZEPHYR-4471"
    Then the retrieval results include "The codename is ZEPHYR-4471."

  Scenario: A disabled segment is not retrieved, and the document's other segments still are
    Given a dataset with the document "zephyr.txt" has been indexed via API, containing:
      """
      The codename is ZEPHYR-4471.

      The backup codename is BOREAS-1150.
      """
    When I open the dataset's page
    Then the document "zephyr.txt" says its segments are hidden
    When I disable segment 1 of the document "zephyr.txt"
    Then the document "zephyr.txt" says its segments are shown
    When I test retrieval with the query "ZEPHYR-4471"
    Then the retrieval test shows "No results"
    When I test retrieval with the query "BOREAS-1150"
    Then the retrieval results include "The backup codename is BOREAS-1150."

  Scenario: The retrieval test searches only its own dataset
    Given a dataset with the document "notus.txt" containing "The other codename is NOTUS-3318." has been indexed via API
    And a dataset with the document "zephyr.txt" containing "The codename is ZEPHYR-4471." has been indexed via API
    When I open the dataset's page
    And I test retrieval with the query "NOTUS-3318"
    Then the retrieval test shows "No results"

  Scenario: Retrieval with top K 1 keeps only the best match
    Given a dataset with the document "orchids.md" has been indexed via API, containing:
      """
      Water the orchid once a week, and keep it in a bright spot without direct sun, away from drafts and radiators.

      Orchid care in short: water the orchid, then let the orchid dry.
      """
    When I open the dataset's page
    And I test retrieval with the query "orchid" and top K 1
    Then the only retrieval result is "Orchid care in short: water the orchid, then let the orchid dry."

  Scenario: A document of an unsupported type is refused visibly
    Given a dataset has been created via API
    When I open the dataset's page
    And I upload the document "diagram.png" containing "not really a png"
    Then I see the document error "not supported"

  Scenario: A document with no text to index ends in error and says why
    Given a dataset has been created via API
    When I open the dataset's page
    And I upload the document "blank.txt" containing only non-breaking spaces
    Then the document "blank.txt" reaches the status "error"
    And the document "blank.txt" says "The document contains no text to index."

  Scenario: A dataset's page reads and looks exactly as its documents are
    Given a dataset has been created via API
    When I open the dataset's page
    And I upload the document "orchids.md" containing:
      """
      # Orchids

      Water orchids once a week.
      """
    And I upload the document "blank.txt" containing only non-breaking spaces
    Then the document "orchids.md" reaches the status "completed"
    And the document "blank.txt" reaches the status "error"
    And the page's main content matches the golden "dataset-documents"
