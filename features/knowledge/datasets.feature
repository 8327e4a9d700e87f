@core
Feature: Knowledge datasets
  Datasets hold scenario-owned documents that are indexed in the background;
  the retrieval test finds their tokens, except in disabled segments.

  Scenario: Creating a dataset from the knowledge page
    When I open the knowledge page
    And I create a dataset named "kb-create"
    Then I see the dataset's page
    When I open the knowledge page
    Then the knowledge page lists the dataset

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

  Scenario: A disabled segment is not retrieved
    Given a dataset with the document "zephyr.txt" containing "The codename is ZEPHYR-4471." has been indexed via API
    When I open the dataset's page
    And I disable segment 1 of the document "zephyr.txt"
    And I test retrieval with the query "ZEPHYR-4471"
    Then the retrieval test shows "No results"

  Scenario: A document of an unsupported type is refused visibly
    Given a dataset has been created via API
    When I open the dataset's page
    And I upload the document "diagram.png" containing "not really a png"
    Then I see the document error "not supported"
