"""The agent_builder console: console JSON API, browser UI, public web app and service API."""
