@core
Feature: Web app settings and embedding
  The access point's Web app settings dialog sets how the published web app
  presents itself: title, description, icon and colour, copyright, privacy
  policy link and default language. They are part of the draft, so the web
  app shows them once published. The embed dialog offers an inline frame or
  a chat button script.

  Background:
    Given a basic configured agent has been created via API

  Scenario: The settings dialog saves every setting into the draft
    When I open the agent's access point
    And I open the web app settings
    And I fill in the web app settings:
      | setting             | value                          |
      | Title               | Zephyr Help Desk               |
      | Description         | Answers about Zephyr orders.   |
      | Icon                | 🦓                             |
      | Colour              | Green                          |
      | Copyright           | © 2026 Zephyr Ltd              |
      | Privacy policy link | https://zephyr.example/privacy |
      | Default language    | Deutsch                        |
    And I save the web app settings
    Then the web app settings dialog is closed
    And the access point confirms "Settings saved. Publish to show them on the web app."
    When I open the web app settings
    Then the web app settings dialog shows:
      | setting             | value                          |
      | Title               | Zephyr Help Desk               |
      | Description         | Answers about Zephyr orders.   |
      | Icon                | 🦓                             |
      | Colour              | Green                          |
      | Copyright           | © 2026 Zephyr Ltd              |
      | Privacy policy link | https://zephyr.example/privacy |
      | Default language    | Deutsch                        |
    And the agent's draft web app settings are exactly:
      | setting             | value                          |
      | Title               | Zephyr Help Desk               |
      | Description         | Answers about Zephyr orders.   |
      | Icon                | 🦓                             |
      | Colour              | Green                          |
      | Copyright           | © 2026 Zephyr Ltd              |
      | Privacy policy link | https://zephyr.example/privacy |
      | Default language    | Deutsch                        |

  Scenario: A privacy policy link that is not a web address is refused and nothing is saved
    When I open the agent's access point
    And I open the web app settings
    And I fill in the web app settings:
      | setting             | value                  |
      | Title               | Zephyr Help Desk       |
      | Privacy policy link | zephyr.example/privacy |
    And I save the web app settings
    Then the web app setting "Privacy policy link" says "The privacy policy link must be an http:// or https:// URL."
    And the agent's draft web app settings are exactly:
      | setting             | value   |
      | Title               |         |
      | Description         |         |
      | Icon                |         |
      | Colour              | Blue    |
      | Copyright           |         |
      | Privacy policy link |         |
      | Default language    | English |

  @needs-test-hooks
  Scenario: The published web app presents itself as its settings say
    Given the agent's web app settings have been saved via API:
      | setting             | value                          |
      | Title               | Zephyr Help Desk               |
      | Description         | Answers about Zephyr orders.   |
      | Icon                | 🦓                             |
      | Colour              | Green                          |
      | Copyright           | © 2026 Zephyr Ltd              |
      | Privacy policy link | https://zephyr.example/privacy |
      | Default language    | Deutsch                        |
    And the agent has been published via the test seeding router
    When I open the agent's web app
    Then the web app presents itself as:
      | setting                  | value                          |
      | title                    | Zephyr Help Desk               |
      | description              | Answers about Zephyr orders.   |
      | icon                     | 🦓                             |
      | colour                   | Green                          |
      | copyright                | © 2026 Zephyr Ltd              |
      | privacy policy link      | https://zephyr.example/privacy |
      | privacy policy link text | Datenschutzerklärung           |
      | language                 | de                             |
      | send button              | Senden                         |

  @needs-test-hooks
  Scenario: Settings saved after a publish wait in the draft until the next one
    Given the agent has been published via the test seeding router
    When I open the agent's access point
    And I open the web app settings
    And I fill in the web app settings:
      | setting | value            |
      | Title   | Zephyr Help Desk |
    And I save the web app settings
    Then the web app settings dialog is closed
    And the publish bar shows "Unpublished changes"
    And opening the web app shows the agent's chat page

  @needs-test-hooks
  Scenario: The embed dialog offers a chat button script of the web app
    Given the agent has been published via the test seeding router
    When I open the agent's access point
    And I open the embed dialog
    Then the embed code is an iframe of the web app URL
    When I choose to embed a chat button
    Then the embed code is the chat button script of the web app URL
    And the embed dialog says "Paste this snippet into your site's HTML: it adds a chat button that opens the web app."
    When I copy the embed code
    Then the embed dialog confirms the copy and the clipboard holds the code it shows

  @needs-test-hooks
  Scenario: A name with quotes and markup is the embed codes' title as typed
    Given a basic configured agent whose name ends in '"Zephyr" <Help> &amp; Q>A' has been created via API
    And the agent has been published via the test seeding router
    When I open the agent's access point
    And I open the embed dialog
    Then the embed code is an iframe of the web app URL
    When I choose to embed a chat button
    Then the embed code is the chat button script of the web app URL
