@core
Feature: Every route under its access rule
  A visitor reaches an agent through its web app (the page and the JSON API
  the page calls), an integrator through the service API with a key. Every
  route keeps the same rule: an address or key the console never gave out is
  unknown, a deleted or never-published agent answers nobody, a surface that
  is switched off refuses, and only then does the route do its work. Each
  route is sent the request its client sends, the one it answers once let
  through, so a route that forgets the rule answers it and fails here.

  The agent is published through the test seeding router, without a model,
  so an allowed chat is refused for what the console lacks: no runtime
  connected (the PR lane), else no model. Only a request past every access
  check gets either answer. tests/console/test_access_matrix.py fails when the
  console has a public route these Examples do not list in every state.

  The console's own JSON API answers only a signed-in admin: every route its
  /openapi.json documents is asked without a session.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Every console API route refuses a caller without a session
    Then every console API route the console documents refuses a caller without a session

  Scenario: Every public route the console documents is in the access matrix
    Then the console documents no web app or service API route the access matrix leaves out

  @needs-test-hooks
  Scenario Outline: The web app's <route> route, <state>
    Given the agent's web app is "<state>"
    When its client sends "<route>"
    Then the route answers "<status>" "<answer>"

    Examples: the page
      | route                  | state    | status | answer                      |
      | GET /chat/{site_token} | unknown  | 404    | Web app not found           |
      | GET /chat/{site_token} | deleted  | 404    | Web app not found           |
      | GET /chat/{site_token} | disabled | 403    | This web app is unavailable |
      | GET /chat/{site_token} | enabled  | 200    | the chat page               |

    Examples: sending a message
      | route                                | state    | status     | answer                                   |
      | POST /chat/{site_token}/api/messages | unknown  | 404        | not_found                                |
      | POST /chat/{site_token}/api/messages | deleted  | 404        | not_found                                |
      | POST /chat/{site_token}/api/messages | disabled | 403        | web_app_disabled                         |
      | POST /chat/{site_token}/api/messages | enabled  | 503 or 409 | runtime_unavailable or model_unavailable |

    Examples: stopping a reply
      | route                                                  | state    | status | answer           |
      | POST /chat/{site_token}/api/messages/{message_id}/stop | unknown  | 404    | not_found        |
      | POST /chat/{site_token}/api/messages/{message_id}/stop | deleted  | 404    | not_found        |
      | POST /chat/{site_token}/api/messages/{message_id}/stop | disabled | 403    | web_app_disabled |
      | POST /chat/{site_token}/api/messages/{message_id}/stop | enabled  | 200    | the seeded reply |

    Examples: reading the conversation
      | route                                                               | state    | status | answer                  |
      | GET /chat/{site_token}/api/conversations/{conversation_id}/messages | unknown  | 404    | not_found               |
      | GET /chat/{site_token}/api/conversations/{conversation_id}/messages | deleted  | 404    | not_found               |
      | GET /chat/{site_token}/api/conversations/{conversation_id}/messages | disabled | 403    | web_app_disabled        |
      | GET /chat/{site_token}/api/conversations/{conversation_id}/messages | enabled  | 200    | the seeded conversation |

    Examples: transcribing a recording (a file of no audio type: refused for its type once let through)
      | route                                            | state    | status | answer                 |
      | POST /chat/{site_token}/api/audio/transcriptions | unknown  | 404    | not_found              |
      | POST /chat/{site_token}/api/audio/transcriptions | deleted  | 404    | not_found              |
      | POST /chat/{site_token}/api/audio/transcriptions | disabled | 403    | web_app_disabled       |
      | POST /chat/{site_token}/api/audio/transcriptions | enabled  | 415    | unsupported_audio_type |

  @needs-test-hooks
  Scenario Outline: The service API's <route> route, <state>
    Given the agent's service API is "<state>"
    When its client sends "<route>"
    Then the route answers "<status>" "<answer>"

    Examples: the app's info
      | route        | state       | status | answer               |
      | GET /v1/info | unknown     | 401    | invalid_api_key      |
      | GET /v1/info | unpublished | 403    | service_api_disabled |
      | GET /v1/info | disabled    | 403    | service_api_disabled |
      | GET /v1/info | enabled     | 200    | the agent's info     |

    Examples: the app's parameters
      | route              | state       | status | answer                   |
      | GET /v1/parameters | unknown     | 401    | invalid_api_key          |
      | GET /v1/parameters | unpublished | 403    | service_api_disabled     |
      | GET /v1/parameters | disabled    | 403    | service_api_disabled     |
      | GET /v1/parameters | enabled     | 200    | the published parameters |

    Examples: chatting
      | route                  | state       | status     | answer                                   |
      | POST /v1/chat-messages | unknown     | 401        | invalid_api_key                          |
      | POST /v1/chat-messages | unpublished | 403        | service_api_disabled                     |
      | POST /v1/chat-messages | disabled    | 403        | service_api_disabled                     |
      | POST /v1/chat-messages | enabled     | 503 or 409 | runtime_unavailable or model_unavailable |

    Examples: reading a conversation (one the key never started: unknown to it once let through)
      | route                                            | state       | status | answer               |
      | GET /v1/conversations/{conversation_id}/messages | unknown     | 401    | invalid_api_key      |
      | GET /v1/conversations/{conversation_id}/messages | unpublished | 403    | service_api_disabled |
      | GET /v1/conversations/{conversation_id}/messages | disabled    | 403    | service_api_disabled |
      | GET /v1/conversations/{conversation_id}/messages | enabled     | 404    | not_found            |
